import { startLocalStack } from '../support/local-stack';

/** One local stack for the whole integration run; tests read where it is from the environment. */
export default async function globalSetup() {
  // DNS fixtures make POST /v1/verify deterministic on a machine without internet.
  const stack = await startLocalStack({ LOCAL_DNS_FIXTURES: 'test/fixtures/dns.json' });
  (globalThis as { __LOCAL_STACK__?: unknown }).__LOCAL_STACK__ = stack;
  process.env.MAILWRIGHT_TEST_STACK = JSON.stringify(stack);
}
