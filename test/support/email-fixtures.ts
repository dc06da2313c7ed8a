import type { EmailRecord } from '../../shared/emails/emails';

/** A transactional email record E1 of project P1 that a sender has claimed (SENDING); tests override what they are about. */
export const sendingEmailRecord = (overrides: Partial<EmailRecord> = {}): EmailRecord => ({
  id: 'E1',
  projectId: 'P1',
  contactId: 'C1',
  to: { email: 'jane@example.com' },
  from: { email: 'news@acme.test' },
  replyTo: [],
  subject: 'Hello',
  html: '<p>Hello</p>',
  headers: [],
  attachments: [],
  source: { type: 'transactional' },
  marketing: false,
  status: 'SENDING',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:01.000Z',
  claimToken: 'claim-1',
  ...overrides,
});

/**
 * DynamoDB's answer (ALL_NEW) to the sender's end of a claim (finishClaim): `stored` with the
 * update's status and its `#fN` fields.
 */
export function endedItem(stored: object, input: { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> }): Record<string, unknown> {
  const fields = Object.entries(input.ExpressionAttributeNames ?? {})
    .filter(([placeholder]) => placeholder.startsWith('#f'))
    .map(([placeholder, name]) => [name, input.ExpressionAttributeValues![`:${placeholder.slice(1)}`]]);
  return { PK: 'PROJECT#P1', SK: 'EMAIL#E1', ...stored, status: input.ExpressionAttributeValues![':status'], ...Object.fromEntries(fields) };
}
