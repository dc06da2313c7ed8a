import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { acquireSendSlot, CAMPAIGN_LEAD_MS, resetPacerMemory, slotIntervalMs } from '../../../../shared/sending/pacer';

const ddb = mockClient(DynamoDBDocumentClient);
const RATE = 20;

beforeEach(() => {
  ddb.reset();
  ddb.on(UpdateCommand).resolves({});
  resetPacerMemory();
});

/** The first slot of each pacer write, in write order, from its new tat and the slots it reserved. */
const reservations = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.ExpressionAttributeValues![':next'] as number);

describe('the pacer lanes (transactional precedence)', () => {
  it('holds campaign mail back while its slots lie more than the lead ahead, and serves a transactional send first', async () => {
    // Prepare: a campaign batch has reserved ten slots (half a second at 20/s)
    const start = Date.now();
    const batch = Promise.all(Array.from({ length: 10 }, () => acquireSendSlot(RATE, Date.now, 'campaign')));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const batchWrites = reservations().length;
    const order: string[] = [];
    // Act: more campaign mail, then a password reset
    const campaign = acquireSendSlot(RATE, Date.now, 'campaign').then(() => order.push('campaign'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const transactional = acquireSendSlot(RATE, Date.now, 'transactional').then(() => order.push('transactional'));
    await Promise.all([batch, campaign, transactional]);
    // Assess: the campaign's next write waited until its slot was within the lead; the transactional one went first
    const writes = reservations();
    expect(writes).toHaveLength(batchWrites + 2);
    expect(writes[batchWrites - 1]! - start).toBeGreaterThanOrEqual(10 * slotIntervalMs(RATE) - 1);
    // Each later write reserved one slot, right after the one before: the transactional's came first.
    expect(writes[batchWrites]! - writes[batchWrites - 1]!).toBeCloseTo(slotIntervalMs(RATE), 2);
    expect(writes[batchWrites + 1]! - writes[batchWrites]!).toBeCloseTo(slotIntervalMs(RATE), 2);
    expect(order).toEqual(['transactional', 'campaign']);
  });

  it('lets a campaign reserve at once when the pacer is idle', async () => {
    // Act
    const before = Date.now();
    await acquireSendSlot(RATE, Date.now, 'campaign');
    // Assess
    expect(reservations()).toHaveLength(1);
    expect(Date.now() - before).toBeLessThan(CAMPAIGN_LEAD_MS + slotIntervalMs(RATE) * 2);
  });
});
