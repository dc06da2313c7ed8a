import { stopLocalStack, type LocalStack } from './local-stack';

export default async function globalTeardown() {
  const stack = (globalThis as { __LOCAL_STACK__?: LocalStack }).__LOCAL_STACK__;
  if (stack) await stopLocalStack(stack);
}
