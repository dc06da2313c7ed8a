import type { Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { variables } from '../../shared/config/variables';
import { queueConsumer, streamConsumer } from '../constructs/consumers';
import { deadLetterQueue } from '../constructs/dead-letter-queue';
import { MailwrightFunction } from '../constructs/mailwright-function';
import type { Api } from './api';
import type { SharedResources } from './shared-resources';

/**
 * Tracked segments (README "Segments"): builds too large for a request go through the build queue
 * to the segment-builder (which queues its own continuation), the table stream keeps membership
 * current (segment-membership), a deleted segment's members are removed by the builder in the
 * background (queued by segment-membership from the segment's REMOVE), and a daily refresh
 * rebuilds segments that age with time.
 */
export function addSegments(stack: Stack, resources: SharedResources, api: Api): void {
  const { table, removalPolicy } = resources;
  const segmentBuildQueue = resources.queue('segment-builds');
  api.function('segments').bindQueue(segmentBuildQueue, variables.segmentBuildQueueUrl);
  queueConsumer(stack, 'segment-builds', segmentBuildQueue, table, { logRemovalPolicy: removalPolicy }).bindQueue(segmentBuildQueue, variables.segmentBuildQueueUrl);
  // It queues a deleted segment's member cleanup, which the builder carries out page by page.
  streamConsumer(stack, 'segment-membership', table, removalPolicy).bindQueue(segmentBuildQueue, variables.segmentBuildQueueUrl);

  // ---- Daily refresh of tracked segments that age with time (withinDays) -----------------------
  // Undeliverable schedule events (EventBridge) and failed runs (Lambda's asynchronous retries) land in one DLQ.
  const segmentRefreshDlq = deadLetterQueue(stack, 'SegmentRefreshDlq', 'The daily refresh of tracked segments failed after its retries');
  const segmentRefreshFunction = new MailwrightFunction(stack, 'SegmentRefreshFunction', { group: 'segment-refresh', logRemovalPolicy: removalPolicy, deadLetterQueue: segmentRefreshDlq });
  segmentRefreshFunction.bindTable(table, 'read').bindQueue(segmentBuildQueue, variables.segmentBuildQueueUrl);
  new Rule(stack, 'SegmentRefreshSchedule', {
    description: 'Queues the daily rebuild of tracked segments with withinDays conditions',
    schedule: Schedule.cron({ minute: '0', hour: '3' }),
    targets: [new LambdaFunction(segmentRefreshFunction, { retryAttempts: 2, deadLetterQueue: segmentRefreshDlq })],
  });
}
