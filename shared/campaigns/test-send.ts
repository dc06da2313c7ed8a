import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ulid } from 'ulid';
import { countDaily } from '../analytics/counters';
import { writeOnce } from '../db/transactions';
import { integerEnv, requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { findContactIdByEmail, getContact } from '../contacts/contacts';
import { finishClaimItem, putEmails, type EmailRecord } from '../emails/emails';
import { ApiError } from '../http/errors';
import { acquireSendSlot } from '../sending/pacer';
import { buildSendEmailInput, classifySesError, sesClient } from '../sending/ses';
import type { Recipient } from './audience';
import { campaignEmail, resolveContent } from './content';
import type { TestSendInput } from './schemas';
import { readCampaign } from './store';

/** Configuration, read once at cold start. */
const config = {
  configurationSet: requiredEnv(variables.sesConfigurationSet),
  ratePerSecond: integerEnv(variables.sendRatePerSecond, 14, { max: 10_000 }),
};

/** What a test is rendered with when the address is not a contact. */
const sampleData = { firstName: 'Sample', lastName: 'Contact' };

/**
 * POST /campaigns/{id}/test: the campaign as it would go out, rendered for each address's contact
 * (sample values when it is not one), subject prefixed "[TEST] ", sent at once through SES in a
 * paced slot. Each is an email record of source `test` (its id the campaign's; contactId
 * `sample` when the address is no contact), so it shows in GET /emails with its SES events'
 * timeline, and counts on the day's `sent`; never in the campaign's stats or progress.
 */
export async function sendTestEmails(projectId: string, campaignId: string, input: TestSendInput): Promise<{ emails: { email: string; messageId: string }[] }> {
  const campaign = await readCampaign(projectId, campaignId);
  const content = campaign.content ?? (await resolveContent(projectId, campaign));
  const addresses = [...new Set(input.emails ?? [input.email!])];
  const now = new Date().toISOString();
  const emails: { email: string; messageId: string }[] = [];
  for (const address of addresses) {
    const recipient = await recipientFor(projectId, address);
    const rendered = campaignEmail(projectId, { id: campaignId, sentAt: now }, content, recipient, now);
    const record: EmailRecord = { ...rendered, id: ulid(), subject: `[TEST] ${rendered.subject}`, source: { type: 'test', id: campaignId }, marketing: false, status: 'SENDING' };
    await acquireSendSlot(config.ratePerSecond);
    // Written SENDING right before SES sees it, so SES's events always find their record.
    await putEmails([record]);
    let messageId: string;
    try {
      messageId = (await sesClient.send(new SendEmailCommand(buildSendEmailInput(record, [], config.configurationSet)))).MessageId ?? '';
    } catch (error) {
      const verdict = classifySesError(error);
      await writeOnce([finishClaimItem(projectId, record.id, 'FAILED', { failureReason: verdict.reason })]);
      throw new ApiError(verdict.action === 'reject' ? 422 : 503, 'TEST_SEND_FAILED', `SES did not take the test email to ${address}: ${verdict.reason}`);
    }
    const sentAt = new Date().toISOString();
    // An SES event that got here first recorded the send and counted it (ses-events: the sender was overtaken).
    if (await writeOnce([finishClaimItem(projectId, record.id, 'SENT', { sesMessageId: messageId, sentAt })])) await countDaily(projectId, [{ metric: 'sent', at: sentAt }]);
    emails.push({ email: address, messageId });
  }
  return { emails };
}

async function recipientFor(projectId: string, email: string): Promise<Recipient> {
  const contactId = await findContactIdByEmail(projectId, email);
  if (contactId) {
    const contact = await getContact(projectId, contactId).catch(() => undefined);
    if (contact) return { id: contact.id, email: contact.email, data: contact.data };
  }
  return { id: 'sample', email, data: sampleData };
}
