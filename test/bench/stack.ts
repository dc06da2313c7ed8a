import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { LocalStack } from '../support/local-stack';
import { describeError } from './measure';

/**
 * CPU seconds used so far by every process of the stack (tsx, the gateway's node, DynamoDB Local's
 * Java, the emulators). startLocalStack spawns it detached, so they share one session: its pid.
 * Linux only (/proc); null elsewhere.
 */
function stackCpuSeconds(stack: LocalStack): number | null {
  try {
    const pids = execFileSync('ps', ['-o', 'pid=', '--sid', String(stack.pid)], { encoding: 'utf8' }).split('\n').map((line) => line.trim()).filter(Boolean);
    let ticks = 0;
    for (const pid of pids) {
      try {
        // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // the process ended between ps and the read
      }
    }
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/**
 * Waits until the stack is idle (below `busyCores` CPU over two consecutive seconds), at most
 * `maxSeconds`. Seeding writes feed the stack's table-stream consumers, which catch up in the
 * background; a baseline measured meanwhile would compete with them.
 */
export async function waitUntilStackIdle(stack: LocalStack, { maxSeconds = 90, busyCores = 0.25 } = {}): Promise<void> {
  const started = performance.now();
  let previous = stackCpuSeconds(stack);
  if (previous === null) return;
  let quietSeconds = 0;
  while (performance.now() - started < maxSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = stackCpuSeconds(stack);
    if (now === null) return;
    quietSeconds = now - previous < busyCores ? quietSeconds + 1 : 0;
    previous = now;
    if (quietSeconds >= 2) {
      console.log(`  the stack went idle after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return;
    }
  }
  console.log(`  the stack is still busy after ${maxSeconds} s (background consumers?); measuring anyway`);
}

/** After a failure: is it the harness, or did the stack (or its DynamoDB Local) go away? */
export async function stackStatus(stack: LocalStack): Promise<string> {
  const reachable = async (url: string) => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      return `answers ${response.status}`;
    } catch (error) {
      return `unreachable (${describeError((error as { cause?: unknown }).cause ?? error)})`;
    }
  };
  let alive = true;
  try {
    process.kill(-stack.pid, 0);
  } catch {
    alive = false;
  }
  return `local stack process group ${alive ? 'alive' : 'GONE'}; gateway /health ${await reachable(`${stack.baseUrl}/health`)}; DynamoDB Local ${await reachable(stack.dynamoDbEndpoint)}`;
}
