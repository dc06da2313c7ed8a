import type { Stack } from 'aws-cdk-lib';
import { variables } from '../../shared/config/variables';
import { queueConsumer, streamConsumer } from '../constructs/consumers';
import type { Api } from './api';
import type { SharedResources } from './shared-resources';

/**
 * Workflows (README "Workflows"): triggers from the table stream, steps from the workflow queue.
 * The trigger consumer enters executions with their first step started and queues what carries
 * them on (a first wait's wake, delayed by SQS) and the wakes of waiting ones; the runner sends
 * email, waits (SQS delays up to 15 minutes, one-time schedules into the workflow queue beyond)
 * and calls webhooks; a deleted workflow's executions are cancelled by the runner in the background
 * (queued by the trigger consumer from the workflow's REMOVE). MARKETING workflow mail
 * carries one-click unsubscribe links, as campaign mail does. workflow-figures counts the entries
 * from the new executions in the table stream.
 */
export function addWorkflows(stack: Stack, resources: SharedResources, api: Api): void {
  const { table, removalPolicy } = resources;
  const workflowQueue = resources.queue('workflows');
  streamConsumer(stack, 'workflow-triggers', table, removalPolicy).bindQueue(workflowQueue, variables.workflowQueueUrl);
  // The entries' figures, counted from the new executions (shared/workflows/entry-figures.ts).
  streamConsumer(stack, 'workflow-figures', table, removalPolicy);
  const runner = queueConsumer(stack, 'workflows', workflowQueue, table, { logRemovalPolicy: removalPolicy });
  for (const fn of [runner, api.function('workflows')]) {
    fn.bindQueue(workflowQueue, variables.workflowQueueUrl)
      .bindScheduler(resources.scheduler, [workflowQueue])
      .addEnvironment(variables.workflowQueueArn.name, workflowQueue.queueArn);
  }
  runner.bindQueue(resources.queue('send'), variables.sendQueueUrl).bindUnsubscribeLinks({ secret: resources.unsubscribeSecret, publicApiUrl: api.publicApiUrl });
}
