import { getContact, patchContact, type Contact } from '../contacts/contacts';
import { writeOnce } from '../db/transactions';
import { countEvents, eventWriteItems, newEvent } from '../events/events';
import { ApiError } from '../http/errors';
import { countCampaignUnsubscribe } from '../campaigns/progress';
import { verifyUnsubscribeToken, type UnsubscribeSubject } from './token';

export type UnsubscribeOutcome = 'invalid' | 'done';

/** Whether a link's token is one this service signed (GET shows its page; it changes nothing). */
export const isValidLink = (token: string): boolean => verifyUnsubscribeToken(token) !== undefined;

/**
 * Whether a POST is RFC 8058's one-click (`List-Unsubscribe=One-Click`, form-encoded, what mail
 * clients send for List-Unsubscribe-Post) rather than the page's form.
 */
export const isOneClick = (body: Buffer | undefined): boolean =>
  body !== undefined && new URLSearchParams(body.toString('utf8')).get('List-Unsubscribe') === 'One-Click';

/**
 * One-click unsubscribe (POST, RFC 8058) and the page's button (POST): the contact of a valid token
 * becomes unsubscribed, with `contact.unsubscribed` (carrying the campaign) and the campaign's
 * `unsubscribed` count. The event is written first, with an id derived from the contact's state,
 * so a retry after a failure records it once and still unsubscribes; an unsubscribed or deleted
 * contact changes nothing.
 */
export async function unsubscribe(token: string): Promise<UnsubscribeOutcome> {
  return changeSubscription(token, false);
}

/** The page's re-subscribe button: the reverse, with `contact.subscribed`. */
export async function resubscribe(token: string): Promise<UnsubscribeOutcome> {
  return changeSubscription(token, true);
}

async function changeSubscription(token: string, subscribed: boolean): Promise<UnsubscribeOutcome> {
  const subject = verifyUnsubscribeToken(token);
  if (!subject) return 'invalid';
  const contact = await findContact(subject);
  if (!contact || contact.subscribed === subscribed) return 'done';
  const event = newEvent(
    {
      name: subscribed ? 'contact.subscribed' : 'contact.unsubscribed',
      contactId: contact.id,
      data: { source: 'unsubscribe-link', ...(subject.campaignId ? { campaignId: subject.campaignId } : {}) },
    },
    new Date(),
    `${subscribed ? 'resubscribe' : 'unsubscribe'}#${contact.id}#${contact.updatedAt}`,
  );
  if (await writeOnce(eventWriteItems(subject.projectId, event))) {
    await countEvents(subject.projectId, [event]);
    if (!subscribed && subject.campaignId) await countCampaignUnsubscribe(subject.projectId, subject.campaignId);
  }
  await patchContact(subject.projectId, contact.id, { subscribed });
  return 'done';
}

async function findContact(subject: UnsubscribeSubject): Promise<Contact | undefined> {
  try {
    return await getContact(subject.projectId, subject.contactId);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return undefined;
    throw error;
  }
}
