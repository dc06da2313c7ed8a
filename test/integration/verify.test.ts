import { api } from '../support/api-client';

// Deterministic DNS: the integration stack runs with LOCAL_DNS_FIXTURES=test/fixtures/dns.json.
const FIELDS = ['domainExists', 'email', 'hasMxRecords', 'isAlias', 'isDisposable', 'isPlusAddressed', 'isTypo', 'reasons', 'valid'];

function expectVerificationResult(data: Record<string, unknown>) {
  expect(Object.keys(data).sort()).toEqual(FIELDS);
  expect(typeof data.email).toBe('string');
  for (const field of FIELDS.filter((f) => f !== 'email' && f !== 'reasons')) expect(typeof data[field]).toBe('boolean');
  const reasons = data.reasons as unknown[];
  expect(Array.isArray(reasons)).toBe(true);
  expect(reasons.length).toBeGreaterThan(0);
  for (const reason of reasons) {
    expect(typeof reason).toBe('string');
    expect(reason).toMatch(/^[A-Z.a-z"+].{9,}[.?)]$/);
  }
}

const verify = (email: unknown) => api('POST', '/v1/verify', { body: { email } });

describe('POST /v1/verify', () => {
  it('flags the typo and the +tag of john+news@gmial.com', async () => {
    const { status, body } = await verify('john+news@gmial.com');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expectVerificationResult(body.data);
    expect(body.data).toMatchObject({ email: 'john+news@gmial.com', isTypo: true, isPlusAddressed: true, isAlias: false });
    expect(body.data.reasons).toContain('The domain looks like a typo. Did you mean john+news@gmail.com?');
  });

  it('flags x@mailinator.com as disposable and not valid', async () => {
    const { status, body } = await verify('x@mailinator.com');
    expect(status).toBe(200);
    expectVerificationResult(body.data);
    expect(body.data).toMatchObject({ valid: false, isDisposable: true, domainExists: true, hasMxRecords: true });
    expect(body.data.reasons).toContain('mailinator.com is a disposable (throwaway) email provider.');
  });

  it('flags info@example.com as a role address that is still valid', async () => {
    const { status, body } = await verify('info@example.com');
    expect(status).toBe(200);
    expectVerificationResult(body.data);
    expect(body.data).toMatchObject({ valid: true, isAlias: true, isDisposable: false, isTypo: false, domainExists: true, hasMxRecords: true });
    expect(body.data.reasons).toContain('info@ is a role address (a shared mailbox), not a person.');
  });

  it('answers not-an-email with 200 and valid false, saying why', async () => {
    const { status, body } = await verify('not-an-email');
    expect(status).toBe(200);
    expectVerificationResult(body.data);
    expect(body.data).toMatchObject({ email: 'not-an-email', valid: false, isDisposable: false, isAlias: false, isTypo: false, isPlusAddressed: false, domainExists: false, hasMxRecords: false });
    expect(body.data.reasons).toContain('The address has no @ between the mailbox name and the domain.');
  });

  it.each([
    ['no email', {}, 'REQUIRED'],
    ['a non-string email', { email: 42 }, 'INVALID_STRING'],
  ])('answers a body with %s with 422 on the field email', async (_label, body, code) => {
    const response = await api('POST', '/v1/verify', { body });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'email', code }] });
  });
});
