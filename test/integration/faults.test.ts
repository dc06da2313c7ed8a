import type { LocalStack } from '../support/local-stack';
import { stopLocalStack } from '../support/local-stack';
import { runFaultsScenario, startFaultsReceiver, startFaultsStack, type FaultsReceiver } from '../support/faults-scenario';

/**
 * Nothing lost, nothing twice, when every AWS dependency fails now and then: a stack of its own
 * with LOCAL_FAULTS at the rates (DynamoDB 10 % throttled and 2 % failing, SQS, S3 and
 * the Scheduler 5 % failing, SES 30 % throttled and 5 % failing), and a small run of the scenario
 * in test/support/faults-scenario.ts — transactional sends retried by Idempotency-Key on 503, a
 * CSV import, a campaign to the imported contacts, tracked events through a workflow whose first
 * step sends, and the webhooks of every send. Every guarantee it checks must hold: each recipient
 * mailed exactly once (the mail viewer), the import's rows counted once, the campaign's stats and
 * the workflow's executions matching, every webhook event delivered, nothing stuck or failed
 * silently, every DLQ empty, no 500 anywhere. The bench's `faults` section runs the full size.
 */
let stack: LocalStack;
let receiver: FaultsReceiver;

beforeAll(async () => {
  receiver = await startFaultsReceiver();
  stack = await startFaultsStack();
}, 240_000);

afterAll(async () => {
  if (stack) await stopLocalStack(stack);
  await receiver?.close();
}, 30_000);

it('sends, imports, a campaign, workflows and webhooks under faults in every dependency: each mail exactly once, every DLQ empty, no 500', async () => {
  // Act: 60 transactional emails (5 a request), a 40-row import and a campaign to it, 10 tracked events
  const { checks } = await runFaultsScenario(stack, receiver, { sends: 60, perSend: 5, campaign: 40, tracked: 10, concurrency: 3 });

  // Assess: every guarantee checked, each holding (a failure names what is missing, twice or stuck)
  expect(checks.map((check) => check.guarantee)).toEqual([
    'every request accepted after its retries',
    'every import row counted once',
    'every recipient mailed exactly once (mail viewer)',
    'campaign stats equal the mail sent',
    'every workflow execution entered once, its email sent once',
    'every workflow entry counted once (its figures)',
    'every webhook event delivered (deduplicated by webhook-id)',
    'every email counted once (event names, analytics)',
    "every email's timeline shows it sent and delivered, once each",
    'whatever failed after all retries is visible (FAILED with a reason)',
    'every DLQ empty',
    'no 500 anywhere',
  ]);
  expect(checks.filter((check) => !check.pass)).toEqual([]);
}, 600_000);
