import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../support/local-stack';
import { benchDocumentClient, TABLE_NAME } from './dynamo';
import { closedLoop, describeError } from './measure';
import { format, heading, type Baseline } from './report';

/**
 * What DynamoDB Local itself sustains on this machine, right now: small PutItems with unique keys
 * at the bench's concurrency. Every throughput figure is read against it, which takes the machine
 * (and the emulator) out of the comparison.
 */
export async function measureRawPutItem(
  stack: LocalStack,
  options: { concurrency: number; seconds: number; warmupSeconds: number },
  label = 'Baseline',
): Promise<Baseline> {
  heading(`${label}: raw DynamoDB Local PutItem, concurrency ${options.concurrency}`);
  const client = benchDocumentClient(stack);
  const runId = Date.now().toString(36);
  const result = await closedLoop({
    ...options,
    operation: (n) => client.send(new PutCommand({ TableName: TABLE_NAME, Item: { PK: `BENCH#${runId}#${n}`, SK: 'X', n, at: new Date().toISOString() } })),
  });
  client.destroy();
  if (result.completed === 0) throw new Error(`No PutItem succeeded: ${describeError(result.firstError)}`);
  if (result.errors > 0) console.log(`  ${result.errors} PutItem errors, first: ${describeError(result.firstError)}`);
  console.log(`  ${format.rate(result.perSecond)} PutItem (${result.completed} in ${options.seconds} s), p50 ${format.ms(result.p50Ms)}, p99 ${format.ms(result.p99Ms)}`);
  return { putItemPerSecond: result.perSecond, putItemP50Ms: result.p50Ms, putItemP99Ms: result.p99Ms };
}
