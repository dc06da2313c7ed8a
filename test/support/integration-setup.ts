import { startLocalStack } from './local-stack';

/** One local stack for the whole integration run; tests read where it is from the environment. */
export default async function globalSetup() {
  // DNS fixtures make POST /v1/verify deterministic on a machine without internet. Projects of
  // more than 10 contacts get their tracked segments built in the background (segment-builder),
  // so the segments tests cover both paths without creating a thousand contacts.
  const stack = await startLocalStack({
    LOCAL_DNS_FIXTURES: 'test/fixtures/dns.json',
    SEGMENT_INLINE_BUILD_MAX_CONTACTS: '10',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    // Webhook retries 1 s apart, so a receiver's failures and the retries are seen within a test.
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1',
    // An endpoint whose deliveries all fail for 20 s is disabled (a day when deployed), so the test sees it.
    WEBHOOK_DISABLE_AFTER_SECONDS: '20',
    // The deliverability guard judges bounce rates from 30 sends instead of 200, so a campaign
    // can be paused mid-send within seconds at 14 emails/s (the rates stay the deployed 5 % / 0.1 %).
    PAUSE_BOUNCE_MIN_SENDS: '30',
  });
  (globalThis as { __LOCAL_STACK__?: unknown }).__LOCAL_STACK__ = stack;
  process.env.MAILWRIGHT_TEST_STACK = JSON.stringify(stack);
}
