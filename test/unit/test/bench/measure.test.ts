import { openLoop } from '../../../bench/measure';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('openLoop', () => {
  it('sends on its schedule without waiting for the answers, and counts only the timed window', async () => {
    // Prepare: answers slower than the interval (100 ms vs 20 ms); a closed loop would have one in flight.
    let sent = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    const request = async () => {
      sent++;
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await sleep(100);
      inFlight--;
      return 200;
    };

    // Act
    const result = await openLoop({ ratePerSecond: 50, seconds: 0.2, warmupSeconds: 0.1, request, expectedStatus: 200 });

    // Assess
    expect(sent).toBe(15);
    expect(mostInFlight).toBeGreaterThanOrEqual(2);
    expect(inFlight).toBe(0);
    expect(result.sent).toBe(10);
    expect(result.latencies).toHaveLength(10);
    // Timers may fire a millisecond or two early against performance.now().
    expect(Math.min(...result.latencies)).toBeGreaterThanOrEqual(95);
    expect(result.statuses).toEqual({ 200: 15 });
  });

  it('counts every status and error, and times only the expected answers', async () => {
    // Prepare
    const answers: (() => Promise<number>)[] = [async () => 200, async () => 503, async () => Promise.reject(new Error('socket hang up')), async () => 200];

    // Act
    const result = await openLoop({ ratePerSecond: 100, seconds: 0.04, warmupSeconds: 0, request: (sequence) => answers[sequence]!(), expectedStatus: 200 });

    // Assess
    expect(result.statuses).toEqual({ 200: 2, 503: 1, error: 1 });
    expect(result.firstError).toBe('Error: socket hang up');
    expect(result.latencies).toHaveLength(2);
  });
});
