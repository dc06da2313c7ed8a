/**
 * AWS calls per email after the API has queued it, counted in this process with the real code:
 * the sender's handler on one send-queue message (its DynamoDB calls and SES SendEmail), then the
 * ses-events handler on that email's Send and Delivery events (SES publishes both for every
 * delivered email). The records are written beforehand, uncounted, and reach no queue, so the
 * stack's own sender never sees them. These counts and the API's (sending section) feed the
 * README's "Cost" page.
 *
 * Imported only after pointServiceAtStack and pointQueuesAtStack.
 */
import { ulid } from 'ulid';
import type { EventBridgeEvent, SQSEvent } from 'aws-lambda';
import { handler as senderHandler } from '../../functions/sender/handler';
import { handler as sesEventsHandler } from '../../functions/ses-events/handler';
import { dynamoDb } from '../../shared/aws/clients';
import type { SesEventDetail } from '../../shared/delivery/ses-events';
import { sesTagNames } from '../../shared/delivery/ses-tags';
import { putEmails, type EmailRecord } from '../../shared/emails/emails';
import { sesClient } from '../../shared/sending/ses';
import { recordCommands } from './dynamo';
import { lambdaContext } from './events';

export interface EmailCalls {
  sender: string[];
  sesSend: string[];
  sesDelivery: string[];
  /** SES SendEmail requests per email. */
  sesRequests: number;
}

const FROM = `hello@${process.env.LOCAL_SENDER_DOMAIN || 'example.com'}`;

function emailRecord(projectId: string, n: number): EmailRecord {
  const now = new Date().toISOString();
  return {
    id: ulid(),
    projectId,
    contactId: ulid(),
    to: { email: `cost-${Date.now().toString(36)}-${n}@bench.example.com` },
    from: { email: FROM },
    replyTo: [],
    subject: 'Cost bench',
    html: '<p>Counting calls</p>',
    headers: [],
    attachments: [],
    source: { type: 'transactional' },
    marketing: false,
    status: 'QUEUED',
    createdAt: now,
    updatedAt: now,
  };
}

const sqsEvent = (email: EmailRecord): SQSEvent => ({
  Records: [
    {
      messageId: `cost-${email.id}`,
      receiptHandle: 'cost',
      body: JSON.stringify({ projectId: email.projectId, emailId: email.id }),
      attributes: { ApproximateReceiveCount: '1' } as never,
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:send',
      awsRegion: 'us-east-1',
    },
  ],
});

function sesEvent(email: EmailRecord, eventType: 'Send' | 'Delivery', messageId: string): EventBridgeEvent<string, SesEventDetail> {
  const timestamp = new Date().toISOString();
  return {
    id: ulid(),
    version: '0',
    account: '000000000000',
    time: timestamp,
    region: 'us-east-1',
    resources: [],
    source: 'aws.ses',
    'detail-type': eventType === 'Send' ? 'Email Sent' : 'Email Delivered',
    detail: {
      eventType,
      mail: { messageId, timestamp, tags: { [sesTagNames.project]: [email.projectId], [sesTagNames.email]: [email.id], [sesTagNames.source]: ['transactional'] } },
      ...(eventType === 'Delivery' ? { delivery: { timestamp, smtpResponse: '250 OK' } } : {}),
    } as SesEventDetail,
  };
}

/** The most frequent command list of the samples. */
const typical = (samples: string[][]) => {
  const counts = new Map<string, number>();
  for (const sample of samples) counts.set(sample.join('+'), (counts.get(sample.join('+')) ?? 0) + 1);
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  return best === '' ? [] : best.split('+');
};

export async function measureCallsPerEmail(projectId: string, samples = 5): Promise<EmailCalls> {
  const recordDynamo = recordCommands(dynamoDb);
  const recordSes = recordCommands(sesClient);
  const sender: string[][] = [];
  const sesSend: string[][] = [];
  const sesDelivery: string[][] = [];
  let sesRequests = 0;
  for (let n = 0; n < samples; n++) {
    const email = emailRecord(projectId, n);
    await putEmails([email]);
    const { result: ses } = await recordDynamo(async () => {
      const sent = await recordSes(async () => {
        const result = await senderHandler(sqsEvent(email), lambdaContext('mailwright-sender'));
        if (result.batchItemFailures.length > 0) throw new Error('The in-process sender failed the bench email');
      });
      return sent.commands;
    }).then(({ result, commands }) => {
      sender.push(commands);
      return { result };
    });
    sesRequests += ses.filter((name) => name === 'SendEmail').length;
    sesSend.push((await recordDynamo(() => sesEventsHandler(sesEvent(email, 'Send', `cost-${email.id}`), lambdaContext('mailwright-ses-events')))).commands);
    sesDelivery.push((await recordDynamo(() => sesEventsHandler(sesEvent(email, 'Delivery', `cost-${email.id}`), lambdaContext('mailwright-ses-events')))).commands);
  }
  return { sender: typical(sender), sesSend: typical(sesSend), sesDelivery: typical(sesDelivery), sesRequests: sesRequests / samples };
}
