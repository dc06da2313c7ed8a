import { projectPartition } from '../projects/keys';

/**
 * Table keys of import jobs: built here and nowhere else.
 *
 * | item       | PK             | SK              |
 * |------------|----------------|-----------------|
 * | import job | PROJECT#<pid>  | IMPORT#<ulid>   |
 * | counter    | PROJECT#<pid>  | COUNTER#IMPORTS |
 *
 * A project's jobs, newest first, are one Query on `begins_with(SK, IMPORT#)`, descending.
 * The files live in the payload bucket under `imports/<pid>/<jobId>` (expired by a lifecycle rule).
 */
export const importKeys = {
  job: (projectId: string, jobId: string) => ({ PK: projectPartition(projectId), SK: `IMPORT#${jobId}` }),
  jobPrefix: 'IMPORT#',
  partition: (projectId: string) => projectPartition(projectId),
  counter: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#IMPORTS' }),
  /** The object of the job's file; JSON bodies and documents are stored as JSON Lines beside it. */
  object: (projectId: string, jobId: string, format: 'upload' | 'csv' | 'jsonl') =>
    `imports/${projectId}/${jobId}${format === 'upload' ? '' : `.${format}`}`,
};
