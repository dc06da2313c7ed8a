import { projectPartition } from '../projects/keys';

/**
 * Table keys of templates: built here and nowhere else.
 *
 * | item      | PK             | SK                  |
 * |-----------|----------------|---------------------|
 * | template  | PROJECT#<pid>  | TEMPLATE#<ulid>     |
 * | counter   | PROJECT#<pid>  | COUNTER#TEMPLATES   |
 * | preview   | TEMPLATE_PREVIEW#<sha256 of the token> | TEMPLATE_PREVIEW |
 *
 * Ids are ULIDs, so a Query on the `TEMPLATE#` prefix (as a BETWEEN range) with ScanIndexForward false lists
 * the project's templates newest first; no index is needed. A rendered preview (POST
 * /templates/render) is a global item found by its token's hash, like an API key: its public
 * route has no project; it holds its project id and expires through the table's TTL.
 */
export const templateKeys = {
  template: (projectId: string, templateId: string) => ({ PK: projectPartition(projectId), SK: `TEMPLATE#${templateId}` }),
  templatePrefix: 'TEMPLATE#',
  partition: (projectId: string) => projectPartition(projectId),
  counter: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#TEMPLATES' }),
  preview: (tokenHash: string) => ({ PK: `TEMPLATE_PREVIEW#${tokenHash}`, SK: 'TEMPLATE_PREVIEW' }),
};
