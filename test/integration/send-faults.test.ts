import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startLocalStack, stopLocalStack, type LocalStack } from '../support/local-stack';
import { storedEmails } from '../support/mail-viewer';

/**
 * Fault injection: a stack whose local SES answers 30 % of SendEmail calls with SES's real
 * throttling error and 5 % with its internal error. Every email must still arrive exactly once,
 * with nothing left in the DLQ.
 */
describe('sending under SES throttling and failures', () => {
  let faulty: LocalStack;

  beforeAll(async () => {
    faulty = await startLocalStack({ LOCAL_SES_THROTTLE_RATE: '0.3', LOCAL_SES_FAILURE_RATE: '0.05', SEND_RATE_PER_SECOND: '100' });
  }, 120_000);

  afterAll(async () => {
    if (faulty) await stopLocalStack(faulty);
  }, 30_000);

  it('delivers 1,000 emails exactly once and leaves the DLQ empty', async () => {
    const recipients = Array.from({ length: 1000 }, (_, i) => `fault${i}@example.com`);
    for (let start = 0; start < recipients.length; start += 50) {
      // A loaded machine can answer 502/503/504, then 409 while the failed attempt's key is held
      // (its 35-s lease): a client retries with the same Idempotency-Key, which sends once.
      let response: Response;
      for (const giveUp = Date.now() + 90_000; ; ) {
        response = await fetch(`${faulty.baseUrl}/v1/send`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${faulty.secretKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': `send-faults-${start}` },
          body: JSON.stringify({ to: recipients.slice(start, start + 50), from: 'hello@example.com', subject: 'Fault test', body: '<p>x</p>' }),
        });
        if (![409, 502, 503, 504].includes(response.status) || Date.now() > giveUp) break;
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? 1)));
      }
      expect(response.status).toBe(200);
    }

    const deadline = Date.now() + 150_000;
    let emails = await storedEmails(faulty.sesUrl);
    while (emails.length < recipients.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      emails = await storedEmails(faulty.sesUrl);
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    emails = await storedEmails(faulty.sesUrl);

    const perRecipient = new Map<string, number>();
    for (const email of emails) for (const to of email.destination.to) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    expect(emails).toHaveLength(1000);
    expect(recipients.every((to) => perRecipient.get(to) === 1)).toBe(true);

    const sqs = new SQSClient({ endpoint: faulty.sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'send-dlq' }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
    expect(Attributes).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  }, 240_000);
});
