import { ACCESS_TOKEN_TTL_MS, parseAccessTokenHeader, signAccessToken, verifyAccessToken } from '../../../../shared/accounts/access-tokens';

const claims = { userId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', projectId: 'P1', role: 'MEMBER' as const, sessionId: '01KAQ5VZ3N4G8T2M6P0R9S7W2Y' };
const now = 1_800_000_000_000;

describe('access tokens', () => {
  it('signs mwa_ tokens that verify to their claims for 5 minutes', () => {
    // Act
    const { token, expiresAt } = signAccessToken(claims, now);

    // Assess
    expect(token.startsWith('mwa_')).toBe(true);
    expect(expiresAt).toBe(now + 5 * 60_000);
    expect(ACCESS_TOKEN_TTL_MS).toBe(300_000);
    expect(verifyAccessToken(token, now + 299_999)).toEqual({ ...claims, expiresAt });
  });

  it('refuses a token at and after its expiry', () => {
    const { token } = signAccessToken(claims, now);

    expect(verifyAccessToken(token, now + 300_000)).toBeNull();
    expect(verifyAccessToken(token, now + 3_600_000)).toBeNull();
  });

  it('refuses a token whose claims were edited (an OWNER role written in)', () => {
    const { token } = signAccessToken(claims, now);
    const [payload, signature] = token.slice(4).split('.');
    const edited = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    edited.r = 'OWNER';

    expect(verifyAccessToken(`mwa_${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${signature}`, now)).toBeNull();
  });

  it('refuses a changed signature, a missing prefix and garbage', () => {
    const { token } = signAccessToken(claims, now);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');

    expect(verifyAccessToken(flipped, now)).toBeNull();
    expect(verifyAccessToken(token.slice(4), now)).toBeNull();
    expect(verifyAccessToken('mwa_x.y', now)).toBeNull();
    expect(verifyAccessToken(`sk_${'A'.repeat(43)}`, now)).toBeNull();
  });

  it('reads only Bearer mwa_ tokens from the Authorization header', () => {
    expect(parseAccessTokenHeader('Bearer mwa_abc.def')).toBe('mwa_abc.def');
    expect(parseAccessTokenHeader(`Bearer sk_${'A'.repeat(43)}`)).toBeNull();
    expect(parseAccessTokenHeader(undefined)).toBeNull();
  });
});
