import { encodeTime } from 'ulid';
import { projectPartition } from '../projects/keys';

/**
 * Table keys of email records (one per recipient of a send): built here and nowhere else.
 * Email ids are ULIDs, so the project's records sort by time (campaign mail: by the campaign's
 * start, which all its ids carry) and a time range is a key condition on the id.
 * | item                | PK                                   | SK           |
 * |---------------------|--------------------------------------|--------------|
 * | email record        | PROJECT#<pid>                        | EMAIL#<id>   |
 * | email content       | PROJECT#<pid>                        | EMAIL_CONTENT#<id> |
 * | recipient reference | PROJECT#<pid>#EMAILS_TO#<address>    | EMAIL#<id>   |
 * | email total         | PROJECT#<pid>                        | COUNTER#EMAILS |
 * The reference is a small item written once beside the record (never updated), so listing a
 * recipient's mail costs 1 WRU per email; a GSI key on the record would rewrite the index entry
 * (the whole record, projection ALL) on every status change. The content (HTML and text) is an
 * item of its own, written once and compressed: the record, updated at every step of the email's
 * life, stays under 1 KB, so each update costs one WRU however large the email. Its sort key is
 * outside the `EMAIL#` range, so listing records never reads it.
 */
export const emailKeys = {
  /** The partition of a project's email records. */
  partition: (projectId: string) => projectPartition(projectId),
  email: (projectId: string, emailId: string) => ({ PK: projectPartition(projectId), SK: `EMAIL#${emailId}` }),
  emailPrefix: 'EMAIL#',
  content: (projectId: string, emailId: string) => ({ PK: projectPartition(projectId), SK: `EMAIL_CONTENT#${emailId}` }),
  recipientPartition: (projectId: string, address: string) => `${projectPartition(projectId)}#EMAILS_TO#${address.toLowerCase()}`,
  recipient: (projectId: string, address: string, emailId: string) => ({ PK: emailKeys.recipientPartition(projectId, address), SK: `EMAIL#${emailId}` }),
  total: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#EMAILS' }),
  emailIdFromSortKey: (sortKey: string) => sortKey.slice('EMAIL#'.length),
};

/** The smallest and largest email sort keys of a millisecond range: ULIDs start with their time. */
export const emailSortKeyBounds = (fromMs: number, toMs: number) => ({
  low: `${emailKeys.emailPrefix}${encodeTime(fromMs, 10)}${'0'.repeat(16)}`,
  high: `${emailKeys.emailPrefix}${encodeTime(toMs, 10)}${'Z'.repeat(16)}`,
});
