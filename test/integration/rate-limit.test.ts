import { admin, api } from '../support/api-client';

const LIMIT = 1000;

describe('rate limit per project', () => {
  it('answers 429 with Retry-After past the limit, while another project still gets 200', async () => {
    const busy = await admin<{ secretKey: string }>('create-project', '--name', 'busy');
    const quiet = await admin<{ secretKey: string }>('create-project', '--name', 'quiet');
    const statuses: number[] = [];
    for (let sent = 0; sent < LIMIT; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => api('GET', '/contacts?limit=1', { key: busy.secretKey })));
      statuses.push(...batch.map((response) => response.status));
    }

    const over = await api('GET', '/contacts?limit=1', { key: busy.secretKey });
    const other = await api('GET', '/contacts?limit=1', { key: quiet.secretKey });

    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('RATE_LIMITED');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(other.status).toBe(200);
  }, 120_000);
});
