import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';
import { cancelExecutionOnRequest, getExecutionDetail } from '../../shared/workflows/execution-detail';
import { listExecutions } from '../../shared/workflows/executions';
import { createWorkflowSchema, listExecutionsQuerySchema, listWorkflowsQuerySchema, patchWorkflowSchema } from '../../shared/workflows/schemas';
import { createWorkflow, deleteWorkflow, getWorkflow, listWorkflows, patchWorkflow, workflowStepStats } from '../../shared/workflows/workflows';

export const handler = createHttpHandler({
  'POST /workflows': async ({ projectId, body }) => ({
    statusCode: 201,
    data: await createWorkflow(projectId, parseInput(createWorkflowSchema, body)),
  }),

  'GET /workflows': async ({ projectId, query }) => ({
    data: await listWorkflows(projectId, parseInput(listWorkflowsQuerySchema, query, 'query')),
  }),

  'GET /workflows/{id}': async ({ projectId, pathParameters }) => ({
    data: await getWorkflow(projectId, pathId(pathParameters, 'Workflow')),
  }),

  'PATCH /workflows/{id}': async ({ projectId, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Workflow');
    const changes = parseInput(patchWorkflowSchema, body);
    return { data: await patchWorkflow(projectId, id, changes) };
  },

  'DELETE /workflows/{id}': async ({ projectId, pathParameters }) => {
    const id = pathId(pathParameters, 'Workflow');
    await deleteWorkflow(projectId, id);
    return { data: { id, deleted: true } };
  },

  'GET /workflows/{id}/stats': async ({ projectId, pathParameters }) => ({
    data: await workflowStepStats(projectId, pathId(pathParameters, 'Workflow')),
  }),

  'GET /workflows/{id}/executions': async ({ projectId, pathParameters, query }) => ({
    data: await listExecutions(projectId, pathId(pathParameters, 'Workflow'), parseInput(listExecutionsQuerySchema, query, 'query')),
  }),

  'GET /workflows/{id}/executions/{executionId}': async ({ projectId, pathParameters }) => ({
    data: await getExecutionDetail(projectId, pathId(pathParameters, 'Workflow'), pathParameters.executionId ?? ''),
  }),

  'POST /workflows/{id}/executions/{executionId}/cancel': async ({ projectId, pathParameters }) => ({
    data: await cancelExecutionOnRequest(projectId, pathId(pathParameters, 'Workflow'), pathParameters.executionId ?? ''),
  }),
});
