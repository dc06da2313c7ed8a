import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { campaignOutcomeListener } from '../../../../shared/campaigns/outcome-listener';
import type { Outcome } from '../../../../shared/delivery/outcomes';
import { C, campaignEmailRecord, campaignKey, statsKey } from '../../../support/campaign-fixtures';

const ddb = mockClient(DynamoDBDocumentClient);

const campaignEmail = campaignEmailRecord({});
const outcome = (fields: Partial<Outcome>): Outcome => ({ email: campaignEmail, events: [], metrics: [], daily: [], ...fields });

/** Every DynamoDB call the listener made, in order, as command and key. */
const calls = () => ddb.calls().map((call) => {
  const input = call.args[0].input as { Key?: Record<string, string>; Item?: Record<string, string> };
  return `${call.args[0].constructor.name} ${(input.Key ?? input.Item)!.SK}`;
});

describe('campaignOutcomeListener', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(UpdateCommand).resolves({});
    ddb.on(PutCommand).resolves({});
    // The campaign is still waiting for most of its mail, and not SENDING any more: nothing completes or pauses
    ddb.on(GetCommand, { Key: statsKey }).resolves({ Item: { ...statsKey, recipients: 10, settled: 3 } });
    ddb.on(GetCommand, { Key: campaignKey }).resolves({ Item: { ...campaignKey, status: 'PAUSED' } });
  });

  it('leaves mail of other sources alone', async () => {
    // Act
    await campaignOutcomeListener(outcome({ email: { ...campaignEmail, source: { type: 'transactional' } }, metrics: ['bounced'], settles: 'FAILED' }));

    // Assess
    expect(ddb.calls()).toHaveLength(0);
  });

  it('settles an email the sender ended, counting its final status, then checks whether the campaign is complete', async () => {
    // Act
    await campaignOutcomeListener(outcome({ settles: 'SUPPRESSED' }));

    // Assess
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({ Key: statsKey, UpdateExpression: 'ADD #a0 :a0, #a1 :a1', ExpressionAttributeNames: { '#a0': 'settled', '#a1': 'suppressed' } }),
    ]);
    expect(calls()).toEqual([`UpdateCommand STATS#campaign#${C}`, `GetCommand STATS#campaign#${C}`]);
  });

  it('counts a sent email on its campaign and settles it in one ADD of the stats item, then checks whether the campaign is complete', async () => {
    // Act
    await campaignOutcomeListener(outcome({ metrics: ['sent'], settles: 'SENT' }));

    // Assess
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({ Key: statsKey, UpdateExpression: 'ADD #a0 :a0, #a1 :a1', ExpressionAttributeNames: { '#a0': 'sent', '#a1': 'settled' } }),
    ]);
    expect(calls()).toEqual([`UpdateCommand STATS#campaign#${C}`, `GetCommand STATS#campaign#${C}`]);
  });

  it('counts the first open of a contact as a unique open, by a conditional put of its engagement item', async () => {
    // Act
    await campaignOutcomeListener(outcome({ metrics: ['opened'] }));

    // Assess
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input).toMatchObject({ Item: { SK: `CAMPAIGN_ENGAGED#${C}#opened#K1` }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      expect.objectContaining({ Key: statsKey, ExpressionAttributeNames: { '#a0': 'opened' } }),
      expect.objectContaining({ Key: statsKey, ExpressionAttributeNames: { '#a0': 'uniqueOpened' } }),
    ]);
  });

  it('counts an A/B sample email\'s first open and its sent on its variant too', async () => {
    // Act
    await campaignOutcomeListener(outcome({ email: { ...campaignEmail, abVariant: 1 }, metrics: ['opened'] }));
    await campaignOutcomeListener(outcome({ email: { ...campaignEmail, abVariant: 1 }, metrics: ['sent'] }));

    // Assess: beside each metric's own count
    const variantAdds = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input).filter((input) => Object.values(input.ExpressionAttributeNames!).some((name) => name.startsWith('ab1_')));
    expect(variantAdds).toEqual([
      expect.objectContaining({ Key: statsKey, ExpressionAttributeNames: { '#a0': 'uniqueOpened', '#a1': 'ab1_opened' } }),
      expect.objectContaining({ Key: statsKey, ExpressionAttributeNames: { '#a0': 'ab1_sent' } }),
    ]);
  });

  it('runs the deliverability guard after a bounce or a complaint, once the email is settled', async () => {
    // Act: a bounce that overtook the sender settles the email as SENT
    await campaignOutcomeListener(outcome({ metrics: ['sent', 'bounced'], settles: 'SENT' }));
    const afterBounce = calls();
    ddb.resetHistory();
    await campaignOutcomeListener(outcome({ metrics: ['complained'] }));

    // Assess: count and settle (one ADD, the completion read), then the guard's read of the campaign, which counts the complaint first
    expect(afterBounce).toEqual([`UpdateCommand STATS#campaign#${C}`, `GetCommand STATS#campaign#${C}`, `GetCommand CAMPAIGN#${C}`]);
    expect(calls()).toEqual([`UpdateCommand STATS#campaign#${C}`, `GetCommand CAMPAIGN#${C}`]);
  });

  it('only counts a delivery on the campaign\'s stats: it neither settles nor engages', async () => {
    // Act
    await campaignOutcomeListener(outcome({ metrics: ['delivered'] }));

    // Assess
    expect(calls()).toEqual([`UpdateCommand STATS#campaign#${C}`]);
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({ UpdateExpression: 'ADD #a0 :a0', ExpressionAttributeNames: { '#a0': 'delivered' } });
  });
});
