import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { checkCompletion, QUIET_MS } from '../../../../shared/campaigns/completion-check';
import { campaignEmailId } from '../../../../shared/campaigns/content';
import type { EmailStatus } from '../../../../shared/emails/emails';
import { C, campaignEmailRecord, P, startedCampaignItem, statsKey } from '../../../support/campaign-fixtures';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);
let table: FakeTable;

const SENT_AT = '2026-11-23T09:00:00.000Z';
const SETTLED_AT = '2026-11-23T09:05:00.000Z';
const longAfter = Date.parse(SETTLED_AT) + QUIET_MS + 1_000;

/** The campaign's emails, one per status, stored as the sender leaves them; sent ones carry sentAt. */
function givenEmails(statuses: EmailStatus[], settledAt = SETTLED_AT) {
  statuses.forEach((status, index) => {
    const id = campaignEmailId(C, `K${index}`, SENT_AT);
    const sent = ['SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED'].includes(status);
    table.put({ PK: `PROJECT#${P}`, SK: `EMAIL#${id}`, ...campaignEmailRecord({ id, contactId: `K${index}`, status, updatedAt: settledAt, ...(sent ? { sentAt: settledAt } : {}) }) });
  });
}

function givenCampaign(overrides: Record<string, unknown> = {}) {
  table.put(startedCampaignItem({ sentAt: SENT_AT, totalRecipients: 4, version: 3, dispatch: { done: true }, ...overrides }));
}

const campaignStatus = () => table.get({ PK: `PROJECT#${P}`, SK: `CAMPAIGN#${C}` })?.status;
const stats = () => table.get(statsKey);

describe('checkCompletion', () => {
  beforeEach(() => {
    ddb.reset();
    table = new FakeTable(ddb);
  });

  it('completes a campaign whose settled counter missed an email: the counters are raised to what its emails show', async () => {
    // Prepare: four emails settled, but one settlement's counter add was lost
    givenCampaign();
    givenEmails(['SENT', 'DELIVERED', 'FAILED', 'SUPPRESSED']);
    table.put({ ...statsKey, recipients: 4, settled: 3, sent: 1, failed: 1, suppressed: 1, delivered: 1 });

    // Act
    const result = await checkCompletion(P, C, longAfter);

    // Assess
    expect(result).toBe('done');
    expect(campaignStatus()).toBe('SENT');
    expect(stats()).toMatchObject({ recipients: 4, settled: 4, sent: 2, failed: 1, suppressed: 1, delivered: 1 });
  });

  it('records the audience size when the fan-out\'s record of it was lost', async () => {
    // Prepare
    givenCampaign();
    givenEmails(['SENT', 'SENT', 'SENT', 'SENT']);
    table.put({ ...statsKey, settled: 4, sent: 4 });

    // Act
    const result = await checkCompletion(P, C, longAfter);

    // Assess
    expect(result).toBe('done');
    expect(campaignStatus()).toBe('SENT');
    expect(stats()).toMatchObject({ recipients: 4, settled: 4 });
  });

  it('checks again while an email is QUEUED or SENDING, changing nothing', async () => {
    // Prepare
    givenCampaign();
    givenEmails(['SENT', 'SENDING', 'SENT', 'QUEUED']);
    table.put({ ...statsKey, recipients: 4, settled: 1, sent: 1 });

    // Act
    const result = await checkCompletion(P, C, longAfter);

    // Assess
    expect(result).toBe('again');
    expect(campaignStatus()).toBe('SENDING');
    expect(stats()).toMatchObject({ settled: 1, sent: 1 });
  });

  it('waits until no counter add can still be on its way before it repairs anything', async () => {
    // Prepare: the last email settled a moment ago; its add may still land
    givenCampaign();
    givenEmails(['SENT', 'SENT', 'SENT', 'SENT']);
    table.put({ ...statsKey, recipients: 4, settled: 3, sent: 3 });

    // Act
    const result = await checkCompletion(P, C, Date.parse(SETTLED_AT) + QUIET_MS / 2);

    // Assess
    expect(result).toBe('again');
    expect(stats()).toMatchObject({ settled: 3, sent: 3 });
    expect(campaignStatus()).toBe('SENDING');
  });

  it('never lowers a counter and does not count mail of other sources written in the same millisecond', async () => {
    // Prepare
    givenCampaign();
    givenEmails(['SENT', 'SENT', 'SENT', 'SENT']);
    const other = campaignEmailId('01HZY3K8Q2V9J6M4T7W5X0C9ZZ', 'K9', SENT_AT);
    table.put({ PK: `PROJECT#${P}`, SK: `EMAIL#${other}`, ...campaignEmailRecord({ id: other, status: 'QUEUED', source: { type: 'campaign', id: '01HZY3K8Q2V9J6M4T7W5X0C9ZZ' } }) });
    table.put({ ...statsKey, recipients: 4, settled: 3, sent: 5 });

    // Act
    const result = await checkCompletion(P, C, longAfter);

    // Assess
    expect(result).toBe('done');
    expect(stats()).toMatchObject({ settled: 4, sent: 5 });
  });

  it('checks again while the fan-out has not finished or the campaign is PAUSED; stops once it ended', async () => {
    // Prepare
    givenEmails(['SENT', 'SENT', 'SENT', 'SENT']);
    table.put({ ...statsKey, recipients: 4, settled: 3, sent: 3 });

    // Act / Assess
    givenCampaign({ dispatch: { owner: 'o1' } });
    expect(await checkCompletion(P, C, longAfter)).toBe('again');
    givenCampaign({ status: 'PAUSED' });
    expect(await checkCompletion(P, C, longAfter)).toBe('again');
    givenCampaign({ status: 'CANCELLED' });
    expect(await checkCompletion(P, C, longAfter)).toBe('done');
    expect(stats()).toMatchObject({ settled: 3 });
  });

  it('stops for a campaign that is gone', async () => {
    // Act / Assess
    expect(await checkCompletion(P, C, longAfter)).toBe('done');
  });
});
