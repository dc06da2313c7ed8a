import { projectPartition } from '../projects/keys';

/**
 * Table keys of a project's suppression list: built here and nowhere else.
 *
 * | item        | PK             | SK                   | attributes                    |
 * |-------------|----------------|----------------------|-------------------------------|
 * | suppressed  | PROJECT#<pid>  | SUPPRESSED#<email>   | email, reason, createdAt      |
 *
 * Addresses are keyed lower-cased and trimmed, so a bounce reported as `Jane@Example.com`
 * suppresses the contact `jane@example.com`.
 */
export const normalizeAddress = (email: string) => email.trim().toLowerCase();

export const suppressionKeys = {
  suppressed: (projectId: string, email: string) => ({ PK: projectPartition(projectId), SK: `${suppressionKeys.prefix}${normalizeAddress(email)}` }),
  prefix: 'SUPPRESSED#',
};
