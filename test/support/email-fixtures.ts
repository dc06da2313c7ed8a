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
  ...overrides,
});
