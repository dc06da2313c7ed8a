import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { tableName } from '../db/table';
import { transactWrite } from '../db/transactions';
import { sendMessageBatches } from '../queue/send-batches';
import { campaignKeys } from './keys';
import type { FanoutMessage } from './queues';
import { countersItem, type StoredCampaign } from './store';

const config = { fanoutQueueUrl: requiredEnv(variables.campaignFanoutQueueUrl) };

/**
 * Queues the fan-out of a campaign that was just moved to SENDING (as `version`). If the message
 * cannot be queued, nothing would ever dispatch it: the campaign goes back to the status it had
 * (`before`), so the client may retry, and the error is thrown.
 */
export async function queueDispatchOrRollBack(projectId: string, before: StoredCampaign, version: number): Promise<void> {
  try {
    await sendMessageBatches(config.fanoutQueueUrl, [JSON.stringify({ kind: 'dispatch', projectId, campaignId: before.id } satisfies FanoutMessage)]);
  } catch (error) {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: campaignKeys.campaign(projectId, before.id),
          UpdateExpression: 'SET #status = :previous, #version = :next REMOVE sentAt, content, dispatch, delivery',
          ConditionExpression: '#status = :sending AND #version = :version',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: { ':previous': before.status, ':sending': 'SENDING', ':version': version, ':next': version + 1 },
        },
      },
      countersItem(projectId, { from: 'SENDING', to: before.status }),
    ]);
    throw error;
  }
}
