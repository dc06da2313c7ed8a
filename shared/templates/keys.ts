import { projectPartition } from '../projects/keys';

/**
 * Table keys of templates: built here and nowhere else.
 *
 * | item      | PK             | SK                  |
 * |-----------|----------------|---------------------|
 * | template  | PROJECT#<pid>  | TEMPLATE#<ulid>     |
 * | counter   | PROJECT#<pid>  | COUNTER#TEMPLATES   |
 *
 * Ids are ULIDs, so a Query on the `TEMPLATE#` prefix (as a BETWEEN range) with ScanIndexForward false lists
 * the project's templates newest first; no index is needed.
 */
export const templateKeys = {
  template: (projectId: string, templateId: string) => ({ PK: projectPartition(projectId), SK: `TEMPLATE#${templateId}` }),
  templatePrefix: 'TEMPLATE#',
  partition: (projectId: string) => projectPartition(projectId),
  counter: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#TEMPLATES' }),
};
