import { Duration, type Stack } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { guardThresholdEnvironment, guardThresholdsFrom } from '../../shared/campaigns/guard';
import { variables } from '../../shared/config/variables';
import { CONSUMER_TIMEOUT_SECONDS, queueConsumer, streamConsumer } from '../constructs/consumers';
import { deadLetterQueue } from '../constructs/dead-letter-queue';
import { MailwrightFunction } from '../constructs/mailwright-function';
import type { Api } from './api';
import type { SharedResources } from './shared-resources';

/**
 * Transactional sending: POST /v1/emails queues to the send queue, the sender sends through SES at
 * the account's rate, SES events come back through the default bus to ses-events; sender domains
 * are SES identities (the domains function).
 */
export function addSending(stack: Stack, resources: SharedResources, api: Api, { sendRatePerSecond }: { sendRatePerSecond: number }): { sender: MailwrightFunction } {
  const { table, payloadBucket, configurationSet, removalPolicy } = resources;
  const sendQueue = resources.queue('send');
  api.function('public').bindQueue(sendQueue, variables.sendQueueUrl).bindBucket(payloadBucket);
  api.function('domains').bindSesIdentities();

  const sender = queueConsumer(stack, 'send', sendQueue, table, {
    logRemovalPolicy: removalPolicy,
    environment: { [variables.sendRatePerSecond.name]: String(sendRatePerSecond) },
  });
  sender.bindBucket(payloadBucket).bindSesSending(configurationSet.configurationSetName);

  // ---- SES events: configuration set → default bus → rule (retries, DLQ) → ses-events ---------
  // EventBridge invokes asynchronously: events it cannot deliver and events whose processing still
  // fails after Lambda's two asynchronous retries both land in this DLQ.
  const sesEventsDlq = deadLetterQueue(stack, 'SesEventsDlq', 'SES events the ses-events function could not apply after its retries');
  // It counts bounces and complaints, so it runs the campaigns' deliverability guard: its
  // thresholds are the context values pauseBounceRate, pauseBounceMinSends, pauseComplaintRate,
  // pauseComplaintMinSends (README "Campaigns"), checked here and again at its cold start.
  const guardThresholds = guardThresholdsFrom((setting) => stack.node.tryGetContext(setting.context), 'context');
  const sesEventsFunction = new MailwrightFunction(stack, 'SesEventsFunction', {
    group: 'ses-events',
    // Two invocations per email, each a few small DynamoDB calls: memory it does not use is billed.
    memorySize: 256,
    timeout: Duration.seconds(CONSUMER_TIMEOUT_SECONDS),
    logRemovalPolicy: removalPolicy,
    deadLetterQueue: sesEventsDlq,
    environment: guardThresholdEnvironment(guardThresholds),
  });
  sesEventsFunction.bindTable(table);
  new Rule(stack, 'SesEventsRule', {
    description: 'SES events of the mailwright configuration set',
    eventPattern: {
      source: ['aws.ses'],
      detailType: ['Email Sent', 'Email Delivered', 'Email Bounced', 'Email Complaint Received', 'Email Rejected', 'Email Opened', 'Email Clicked', 'Email Rendering Failed', 'Email Delivery Delayed'],
      detail: { mail: { tags: { 'ses:configuration-set': [configurationSet.configurationSetName] } } },
    },
    targets: [new LambdaFunction(sesEventsFunction, { deadLetterQueue: sesEventsDlq, retryAttempts: 8, maxEventAge: Duration.hours(6) })],
  });
  // Emails' events, counted off the paths that send and record them (shared/delivery/tallies.ts).
  streamConsumer(stack, 'delivery-counters', table, removalPolicy);
  return { sender };
}
