import { projectPartition } from '../projects/keys';

/**
 * Table keys of export jobs: built here and nowhere else.
 *
 * | item       | PK             | SK              |
 * |------------|----------------|-----------------|
 * | export job | PROJECT#<pid>  | EXPORT#<ulid>   |
 * | counter    | PROJECT#<pid>  | COUNTER#EXPORTS |
 *
 * The CSV files live in the payload bucket under `exports/<pid>/<jobId>.csv` (lifecycle-expired).
 */
export const exportKeys = {
  job: (projectId: string, jobId: string) => ({ PK: projectPartition(projectId), SK: `EXPORT#${jobId}` }),
  jobPrefix: 'EXPORT#',
  partition: (projectId: string) => projectPartition(projectId),
  counter: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#EXPORTS' }),
  object: (projectId: string, jobId: string) => `exports/${projectId}/${jobId}.csv`,
};
