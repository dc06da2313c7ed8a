import type { paths } from './schema';

/**
 * Types of the API's answers, taken from the generated document (schema.d.ts, made from the
 * service's own OpenAPI document), so the app cannot drift from what the API answers.
 */
type SuccessData<Operation> = Operation extends { responses: { 200: { content: { 'application/json': { data: infer Data } } } } }
  ? Data
  : Operation extends { responses: { 201: { content: { 'application/json': { data: infer Data } } } } }
    ? Data
    : never;

export type SessionGrant = SuccessData<paths['/dashboard/session']['post']>;
export type CreatedApiKey = SuccessData<paths['/keys']['post']>;
export type Role = SuccessData<paths['/members']['get']>['items'][number]['role'];
export type RenderedTemplate = SuccessData<paths['/templates/render']['post']>;

export type Webhook = SuccessData<paths['/webhooks/{id}']['get']>;
/** POST /webhooks and rotate-secret: the endpoint with its signing secret, shown only then. */
export type WebhookWithSecret = SuccessData<paths['/webhooks']['post']>;

export type Workflow = SuccessData<paths['/workflows/{id}']['get']>;
export type WorkflowStep = Workflow['steps'][number];
export type WorkflowStats = SuccessData<paths['/workflows/{id}/stats']['get']>;
export type WorkflowExecution = SuccessData<paths['/workflows/{id}/executions/{executionId}']['get']>;
