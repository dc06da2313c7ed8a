import { projectPartition } from '../projects/keys';
import type { EmailSourceType } from '../emails/emails';
import { workflowKeys } from '../workflows/keys';

/**
 * Table keys of delivery counters, one item per source (transactional, a campaign, a workflow). A
 * workflow's lives in the partition of its runs (shared/workflows/keys.ts), beside the execution
 * counters its engine adds to the same item.
 */
export const statsKeys = {
  source: (projectId: string, type: EmailSourceType, sourceId?: string) =>
    type === 'workflow' && sourceId
      ? workflowKeys.stats(projectId, sourceId)
      : {
          PK: projectPartition(projectId),
          SK: `STATS#${type}${sourceId ? `#${sourceId}` : ''}`,
        },
};
