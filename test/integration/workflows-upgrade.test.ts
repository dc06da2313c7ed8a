import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { ulid } from 'ulid';
import { admin, api, stack, uniqueEmail, until } from '../support/api-client';
import { storedEmails, waitForEmails } from '../support/mail-viewer';

jest.setTimeout(90_000);

/**
 * A deployment upgraded from before the workflows' runs had partitions of their own
 * (shared/workflows/layout-upgrade.ts): its items, as that layout wrote them, are put in the table
 * directly (as the admin CLI reaches it), then the service is used through its API as after the
 * upgrade. Nothing of what ran before is lost: a contact who went through a no-reentry workflow
 * does not go again, an execution waiting for an event wakes on it, and the figures carry on.
 */
const table = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: stack.dynamoDbEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }));
const TABLE_NAME = 'mailwright';
const suffix = Math.random().toString(36).slice(2, 8);
const domain = `upgrade-${suffix}.example.com`;

it('keeps what ran before the upgrade: guards hold, a waiting execution wakes, figures carry on', async () => {
  // Prepare: a project with a template and two contacts, through the API
  const { projectId, secretKey: key } = await admin<{ projectId: string; secretKey: string }>('create-project', '--name', `workflows-upgrade-${suffix}`);
  expect((await api('POST', '/domains', { key, body: { domain } })).status).toBe(201);
  await admin('verify-domain', '--domain', domain);
  await until(async () => (await api('GET', '/domains', { key })).body.data.items.find((item: { status: string }) => item.status === 'VERIFIED'));
  const template = await api('POST', '/templates', { key, body: { name: 'After go', subject: `After go ${suffix}`, body: '<p>Thanks</p>', type: 'TRANSACTIONAL', from: `hello@${domain}` } });
  expect(template.status).toBe(201);
  const [entered, waiting] = [uniqueEmail('upgrade-entered'), uniqueEmail('upgrade-waiting')];
  const contactIds: string[] = [];
  for (const email of [entered, waiting]) {
    const created = await api('POST', '/contacts', { key, body: { email, subscribed: true } });
    expect(created.status).toBe(201);
    contactIds.push(created.body.data.id);
  }
  const [enteredId, waitingId] = contactIds as [string, string];

  // ...and its workflow as the layout before wrote it: the workflow, its version and trigger index,
  // the first contact's guard (it went through), the second's execution waiting for "go", the figures
  const [workflowId, executionId] = [ulid(), ulid()];
  const project = `PROJECT#${projectId}`;
  const at = new Date().toISOString();
  const steps = [
    { id: 'wait', type: 'WAIT_FOR_EVENT', event: `go_${suffix}`, timeoutSeconds: 3600, next: 'mail' },
    { id: 'mail', type: 'SEND_EMAIL', templateId: template.body.data.id },
  ];
  const legacy = [
    { PK: project, SK: `WORKFLOW#${workflowId}`, workflowId, name: 'Before the upgrade', description: null, enabled: true, trigger: { type: 'EVENT', event: `start_${suffix}` }, allowReentry: false, steps, version: 1, webhookSecret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXR0ZXN0', createdAt: at, updatedAt: at },
    { PK: project, SK: `WORKFLOW_VERSION#${workflowId}#000001`, workflowId, version: 1, trigger: { type: 'EVENT', event: `start_${suffix}` }, allowReentry: false, steps, createdAt: at },
    { PK: project, SK: `WORKFLOW_TRIGGER#EVENT#start_${suffix}`, [`w_${workflowId}`]: { version: 1, allowReentry: false, since: Date.now() - 60_000 } },
    { PK: project, SK: `WORKFLOW_ENTRY#${workflowId}#${enteredId}`, workflowId, contactId: enteredId, lastEnteredAt: at, entries: 1 },
    {
      PK: project,
      SK: `WORKFLOW_EXECUTION#${workflowId}#${executionId}`,
      executionId,
      workflowId,
      workflowVersion: 1,
      contactId: waitingId,
      status: 'WAITING',
      currentStepId: 'wait',
      startedAt: at,
      trigger: { type: 'EVENT', event: `start_${suffix}`, data: {} },
      steps: { wait: { stepId: 'wait', type: 'WAIT_FOR_EVENT', status: 'RUNNING', startedAt: at, waitUntil: new Date(Date.now() + 3_600_000).toISOString(), event: `go_${suffix}` } },
      GSI1PK: `${project}#WORKFLOW_EXECUTIONS#${workflowId}#STATUS#WAITING`,
      GSI1SK: executionId,
      GSI2PK: `${project}#WORKFLOW_EXECUTIONS#${workflowId}#CONTACT#${waitingId}`,
      GSI2SK: executionId,
    },
    { PK: project, SK: `WORKFLOW_ENTRY#${workflowId}#${waitingId}`, workflowId, contactId: waitingId, activeExecutionId: executionId, lastEnteredAt: at, entries: 1 },
    { PK: project, SK: `WORKFLOW_WAIT#${waitingId}#go_${suffix}#${executionId}`, workflowId, executionId, stepId: 'wait', contactId: waitingId, event: `go_${suffix}` },
    { PK: project, SK: `STATS#workflow#${workflowId}`, entered: 2, completed: 1, 'step#wait#entered': 2, 'step#wait#completed': 1 },
  ];
  await table.send(new BatchWriteCommand({ RequestItems: { [TABLE_NAME]: legacy.map((Item) => ({ PutRequest: { Item } })) } }));

  // Act: the first contact triggers the workflow again; the second sends the event it waits for
  expect((await api('POST', '/v1/track', { key, body: { email: entered, event: `start_${suffix}` } })).status).toBe(200);
  expect((await api('POST', '/v1/track', { key, body: { email: waiting, event: `go_${suffix}` } })).status).toBe(200);

  // Assess: the waiting execution woke and sent its mail; the one who went through did not go again
  await waitForEmails(waiting, 1, { timeoutMs: 60_000 });
  const done = await until(async () => {
    const { body } = await api('GET', `/workflows/${workflowId}/executions?contactId=${waitingId}`, { key });
    return body.data.items[0]?.status === 'COMPLETED' ? body.data.items[0] : undefined;
  }, 60_000);
  expect(done.steps.map((step: { stepId: string; outcome: string }) => [step.stepId, step.outcome])).toEqual([
    ['wait', 'EVENT'],
    ['mail', 'EMAIL_QUEUED'],
  ]);
  expect((await api('GET', `/workflows/${workflowId}/executions?contactId=${enteredId}`, { key })).body.data.items).toEqual([]);
  expect((await storedEmails()).filter((mail) => mail.destination.to.some((to) => to.includes(entered)))).toEqual([]);
  // the figures went on from where they were
  const stats = (await api('GET', `/workflows/${workflowId}/stats`, { key })).body.data;
  expect(stats).toMatchObject({ entered: 2, completed: 2 });
  expect(stats.steps.find((step: { stepId: string }) => step.stepId === 'wait')).toMatchObject({ entered: 2, completed: 2, branches: { event: 1 } });
  // and nothing is left in the old layout
  const old = await table.send(new GetCommand({ TableName: TABLE_NAME, Key: { PK: project, SK: `WORKFLOW_EXECUTION#${workflowId}#${executionId}` } }));
  expect(old.Item).toBeUndefined();
});
