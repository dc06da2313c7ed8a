import { verdictLine } from '../../../bench/report';

describe('verdictLine', () => {
  it('prints PASS or FAIL with the target and the figure', () => {
    // Prepare
    const verdict = { target: 'p99 beside ≤ 1.5× alone', measured: '1.2×' };

    // Act
    const lines = [verdictLine({ ...verdict, pass: true }), verdictLine({ ...verdict, pass: false })];

    // Assess
    expect(lines).toEqual(['PASS   p99 beside ≤ 1.5× alone: 1.2×', 'FAIL   p99 beside ≤ 1.5× alone: 1.2×']);
  });

  it('prints REJECTED with the reason instead, whatever the figure says', () => {
    // Act
    const line = verdictLine({ target: 'p99 beside ≤ 1.5× alone', measured: '0.9×', pass: true, rejected: 'SES took 8/s of 10/s' });

    // Assess
    expect(line).toBe('REJECTED  p99 beside ≤ 1.5× alone: 0.9× — SES took 8/s of 10/s');
  });
});
