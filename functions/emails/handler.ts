import { getEmailActivity, listEmails } from '../../shared/emails/activity';
import { listEmailsQuerySchema } from '../../shared/emails/schemas';
import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'GET /emails': async ({ projectId, query }) => ({
    data: await listEmails(projectId, parseInput(listEmailsQuerySchema, query, 'query')),
  }),

  'GET /emails/{id}': async ({ projectId, pathParameters }) => ({
    data: await getEmailActivity(projectId, pathId(pathParameters, 'Email')),
  }),
});
