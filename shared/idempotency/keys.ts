import { createHash } from 'node:crypto';
import { projectPartition } from '../projects/keys';

/** Table keys of idempotency records: the key is hashed so any client string fits a sort key. */
export const idempotencyKeys = {
  record: (projectId: string, idempotencyKey: string) => ({
    PK: projectPartition(projectId),
    SK: `IDEMPOTENCY#${createHash('sha256').update(idempotencyKey).digest('hex')}`,
  }),
};
