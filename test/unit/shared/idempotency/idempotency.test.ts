import { createHash } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { withIdempotency, type IdempotentRun } from '../../../../shared/idempotency/idempotency';

const ddb = mockClient(DynamoDBDocumentClient);
const conditionFailed = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
const body = { to: 'a@example.com' };

describe('withIdempotency', () => {
  beforeEach(() => {
    ddb.reset();
  });

  it('runs a new key once with a fresh seed and keeps its response', async () => {
    // Prepare
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    const runs: IdempotentRun[] = [];

    // Act
    const result = await withIdempotency('P1', 'k1', body, async (run) => {
      runs.push(run);
      return { data: { ok: true } };
    });

    // Assess
    expect(result).toEqual({ data: { ok: true } });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ retry: false });
    expect(ddb.commandCalls(PutCommand)[0]!.args[0].input.Item).toMatchObject({ state: 'IN_PROGRESS', seed: runs[0]!.seed });
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input.ExpressionAttributeValues).toMatchObject({ ':complete': 'COMPLETE', ':seed': runs[0]!.seed });
  });

  it('gives the key back when a run fails, without deleting its seed', async () => {
    // Prepare
    ddb.on(PutCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    const busy = Object.assign(new Error('busy'), { name: 'ProvisionedThroughputExceededException' });

    // Act
    const attempt = withIdempotency('P1', 'k1', body, async () => {
      throw busy;
    });

    // Assess
    await expect(attempt).rejects.toBe(busy);
    const release = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(release.UpdateExpression).toBe('SET #state = :failed');
    expect(release.ExpressionAttributeValues).toMatchObject({ ':failed': 'FAILED' });
  });

  it('runs a retry of a failed run again with the same seed, marked as a retry', async () => {
    // Prepare
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(UpdateCommand, { UpdateExpression: 'SET #state = :inProgress, leaseUntil = :lease' }).resolves({ Attributes: { seed: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', state: 'IN_PROGRESS' } });
    ddb.on(UpdateCommand, { UpdateExpression: 'SET #state = :complete, #response = :response REMOVE leaseUntil' }).resolves({});
    const runs: IdempotentRun[] = [];

    // Act
    await withIdempotency('P1', 'k1', body, async (run) => {
      runs.push(run);
      return { data: {} };
    });

    // Assess
    expect(runs).toEqual([{ seed: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', retry: true }]);
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input.ConditionExpression).toContain('#state = :failed OR attribute_not_exists(leaseUntil) OR leaseUntil < :now');
  });

  it('replays a completed key without running, answers 409 while a run holds it and for another body', async () => {
    // Prepare
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(UpdateCommand).rejects(conditionFailed());
    const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: { fingerprint, state: 'COMPLETE', response: { statusCode: 200, data: { a: 1 } } } })
      .resolvesOnce({ Item: { fingerprint, state: 'IN_PROGRESS', seed: 's' } })
      .resolves({ Item: { fingerprint, state: 'COMPLETE', response: { statusCode: 200, data: { a: 1 } } } });
    let ran = false;
    const run = async () => {
      ran = true;
      return { data: {} };
    };

    // Act
    const replayed = await withIdempotency('P1', 'k1', body, run);
    const held = withIdempotency('P1', 'k1', body, run);
    await expect(held).rejects.toMatchObject({ statusCode: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS' });
    const other = withIdempotency('P1', 'k1', { to: 'b@example.com' }, run);

    // Assess
    expect(replayed).toEqual({ statusCode: 200, data: { a: 1 }, headers: { 'Idempotent-Replayed': 'true' } });
    await expect(other).rejects.toMatchObject({ statusCode: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(ran).toBe(false);
  });
});
