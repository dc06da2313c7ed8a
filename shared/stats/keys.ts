import { projectPartition } from '../projects/keys';
import type { EmailSourceType } from '../emails/emails';

/** Table keys of delivery counters, one item per source (transactional, a campaign, a workflow). */
export const statsKeys = {
  source: (projectId: string, type: EmailSourceType, sourceId?: string) => ({
    PK: projectPartition(projectId),
    SK: `STATS#${type}${sourceId ? `#${sourceId}` : ''}`,
  }),
};
