/**
 * A virtual clock for code that takes a clock and a sleep (shared/sending/pacer.ts's SendPacer):
 * time moves only from one sleeper's wake-up to the next, once every promise has settled, so a
 * minute of pacing runs in well under a second and the same way on a loaded machine.
 */
export interface VirtualClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Wakes sleepers in time order until none is left before `end`; the clock then reads `end`. */
  runUntil(end: number): Promise<void>;
}

export function virtualClock(start = 0): VirtualClock {
  let now = start;
  let sequence = 0;
  const sleepers: { at: number; sequence: number; wake: () => void }[] = [];
  // setImmediate runs after every pending promise reaction: all that the last wake-up caused.
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ at: now + Math.max(0, ms), sequence: sequence++, wake })),
    async runUntil(end) {
      for (;;) {
        await settle();
        await settle();
        sleepers.sort((a, b) => a.at - b.at || a.sequence - b.sequence);
        const next = sleepers[0];
        if (!next || next.at > end) break;
        sleepers.shift();
        now = Math.max(now, next.at);
        next.wake();
      }
      now = Math.max(now, end);
    },
  };
}
