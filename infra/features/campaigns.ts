import type { Stack } from 'aws-cdk-lib';
import { variables } from '../../shared/config/variables';
import { queueConsumer } from '../constructs/consumers';
import type { Api } from './api';
import type { SharedResources } from './shared-resources';

/**
 * Campaigns (README "Campaigns"): schedule → fan-out queue → campaign-dispatch → campaign-send
 * queue → campaign-sender, in the pacer's campaign lane. Marketing mail carries signed one-click
 * unsubscribe links, which the unsubscribe function checks.
 */
export function addCampaigns(stack: Stack, resources: SharedResources, api: Api, { sendRatePerSecond }: { sendRatePerSecond: number }): void {
  const { table, payloadBucket, removalPolicy } = resources;
  const configurationSetName = resources.configurationSet.configurationSetName;
  const fanoutQueue = resources.queue('campaign-fanout');
  const campaignSendQueue = resources.queue('campaign-send');
  const links = { secret: resources.unsubscribeSecret, publicApiUrl: api.publicApiUrl };
  api
    .function('campaigns')
    .bindQueue(fanoutQueue, variables.campaignFanoutQueueUrl)
    .bindScheduler(resources.scheduler, [fanoutQueue])
    .bindUnsubscribeLinks(links)
    // Test sends go straight to SES in a paced slot.
    .bindSesSending(configurationSetName)
    .addEnvironment(variables.campaignFanoutQueueArn.name, fanoutQueue.queueArn)
    .addEnvironment(variables.sendRatePerSecond.name, String(sendRatePerSecond));
  queueConsumer(stack, 'campaign-fanout', fanoutQueue, table, { logRemovalPolicy: removalPolicy })
    .bindQueue(fanoutQueue, variables.campaignFanoutQueueUrl)
    .bindQueue(campaignSendQueue, variables.campaignSendQueueUrl)
    .bindUnsubscribeLinks(links)
    // An A/B test's one-time schedule, made when its sample is queued, picks the winner.
    .bindScheduler(resources.scheduler, [fanoutQueue])
    .addEnvironment(variables.campaignFanoutQueueArn.name, fanoutQueue.queueArn);
  queueConsumer(stack, 'campaign-send', campaignSendQueue, table, {
    logRemovalPolicy: removalPolicy,
    environment: { [variables.sendRatePerSecond.name]: String(sendRatePerSecond) },
  })
    .bindBucket(payloadBucket)
    .bindSesSending(configurationSetName);
  api.function('unsubscribe').bindUnsubscribeLinks(links);
}
