import type { Context, ScheduledEvent } from 'aws-lambda';
import { lambdaContext } from './lambda-context';

/**
 * The local stand-in for the stack's EventBridge schedules: the daily segment refresh runs every
 * LOCAL_SEGMENT_REFRESH_SECONDS (default one day) with a Scheduled Event, like the deployed rule.
 */
export function startSchedules(refreshSeconds: number): () => Promise<void> {
  const timer = setInterval(() => void runRefresh(), refreshSeconds * 1000);
  return async () => clearInterval(timer);
}

async function runRefresh(): Promise<void> {
  const { handler } = (await import('../../functions/segment-refresh/handler')) as { handler: (event: ScheduledEvent, context: Context) => Promise<void> };
  const event: ScheduledEvent = {
    version: '0',
    id: crypto.randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region: process.env.AWS_REGION ?? 'us-east-1',
    resources: ['arn:aws:events:local:000000000000:rule/SegmentRefreshSchedule'],
    detail: {},
  };
  try {
    await handler(event, lambdaContext('segment-refresh', 10_000));
  } catch (error) {
    console.error('The segment refresh failed; it runs again at the next interval', error);
  }
}
