import { describeLocalFaults, drawFault, parseLocalFaults } from '../../../../infra/local/faults';

describe('parseLocalFaults', () => {
  it('reads the issue’s example, service by service', () => {
    // Prepare
    const raw = 'dynamodb:throttle=0.1,error=0.02;sqs:error=0.05;s3:error=0.05; ses:throttle=0.3,error=0.05;scheduler:error=0.05,latency=20';

    // Act
    const faults = parseLocalFaults(raw);

    // Assess
    expect(faults).toEqual({
      dynamodb: { throttle: 0.1, error: 0.02, latencyMs: 0 },
      sqs: { throttle: 0, error: 0.05, latencyMs: 0 },
      s3: { throttle: 0, error: 0.05, latencyMs: 0 },
      ses: { throttle: 0.3, error: 0.05, latencyMs: 0 },
      scheduler: { throttle: 0, error: 0.05, latencyMs: 20 },
    });
  });

  it('means no faults when unset or blank', () => {
    expect(parseLocalFaults(undefined)).toEqual({});
    expect(parseLocalFaults('  ')).toEqual({});
  });

  it.each([
    ['dynamo:error=0.1', 'unknown service "dynamo"'],
    ['dynamodb:errors=0.1', 'unknown key "errors" for dynamodb'],
    ['dynamodb:error=1.5', 'dynamodb error must be a share from 0 to 1, got "1.5"'],
    ['dynamodb:error=abc', 'dynamodb error must be a share from 0 to 1, got "abc"'],
    ['sqs:latency=-5', 'sqs latency must be a whole number of milliseconds, got "-5"'],
    ['sqs:error', '"error" is not key=value'],
    ['error=0.1', '"error=0.1" names no service (service:key=value)'],
    ['s3:throttle=0.6,error=0.5', 's3 throttle and error add up to more than 1'],
    ['ses:error=0.1;ses:throttle=0.1', 'ses is given twice'],
  ])('refuses %s with a message that says why', (raw, why) => {
    expect(() => parseLocalFaults(raw)).toThrow(`LOCAL_FAULTS is malformed: ${why}.`);
  });
});

describe('drawFault', () => {
  it('throttles below the throttle share, fails in the next band, passes above', () => {
    const settings = { throttle: 0.1, error: 0.05, latencyMs: 0 };
    expect(drawFault(settings, () => 0.05)).toBe('throttle');
    expect(drawFault(settings, () => 0.12)).toBe('error');
    expect(drawFault(settings, () => 0.16)).toBeUndefined();
    expect(drawFault(undefined, () => 0)).toBeUndefined();
  });
});

describe('describeLocalFaults', () => {
  it('prints one line per service', () => {
    expect(describeLocalFaults(parseLocalFaults('dynamodb:throttle=0.1,error=0.02;s3:latency=50'))).toEqual([
      'dynamodb   10 % throttled, 2 % failed (5xx)',
      's3         +50 ms',
    ]);
  });
});
