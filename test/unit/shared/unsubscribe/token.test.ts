import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { unsubscribeHeaders, unsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from '../../../../shared/unsubscribe/token';

const subject = { projectId: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', contactId: '01KAQ5W0000000000000000000', campaignId: '01KAQ5W1111111111111111111' };

describe('unsubscribe tokens', () => {
  it('verify to the subject they were made for, with or without a campaign', () => {
    expect(verifyUnsubscribeToken(unsubscribeToken(subject))).toEqual(subject);
    const { campaignId: _campaign, ...withoutCampaign } = subject;
    expect(verifyUnsubscribeToken(unsubscribeToken(withoutCampaign))).toEqual(withoutCampaign);
  });

  it('fail when any character changes, the payload is swapped, or another secret signed them', () => {
    // Prepare
    const token = unsubscribeToken(subject);
    const [payload, signature] = token.split('.') as [string, string];
    const other = unsubscribeToken({ ...subject, contactId: '01KAQ5W2222222222222222222' });
    const foreign = `${payload}.${createHmac('sha256', 'another-secret-of-at-least-32-chars!!').update(`unsubscribe:${payload}`).digest().subarray(0, 16).toString('base64url')}`;
    // Act / Assess
    for (let index = 0; index < token.length; index++) {
      const changed = token.slice(0, index) + (token[index] === 'A' ? 'B' : 'A') + token.slice(index + 1);
      if (changed !== token) expect(verifyUnsubscribeToken(changed)).toBeUndefined();
    }
    expect(verifyUnsubscribeToken(`${other.split('.')[0]}.${signature}`)).toBeUndefined();
    expect(verifyUnsubscribeToken(foreign)).toBeUndefined();
    expect(verifyUnsubscribeToken('')).toBeUndefined();
    expect(verifyUnsubscribeToken('a.b.c')).toBeUndefined();
    expect(verifyUnsubscribeToken('x'.repeat(400))).toBeUndefined();
  });

  it('fail for every other last character, though base64url leaves its low bits unused', () => {
    // Prepare: the signature's 16 bytes end in a character whose 2 low bits Node's decoder ignores.
    const token = unsubscribeToken(subject);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const others = [...alphabet].filter((character) => character !== token.at(-1));
    // Act
    const accepted = others.filter((character) => verifyUnsubscribeToken(token.slice(0, -1) + character) !== undefined);
    // Assess
    expect(others).toHaveLength(63);
    expect(accepted).toEqual([]);
  });

  it('fail for every single-character change anywhere (property)', () => {
    const id = fc.stringMatching(/^[0-9A-Za-z_-]{1,64}$/);
    const subjects = fc.record({ projectId: id, contactId: id, campaignId: fc.option(id, { nil: undefined }) });
    fc.assert(
      fc.property(subjects, fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (generated, position, character) => {
        // Prepare
        const { campaignId, ...rest } = generated;
        const token = unsubscribeToken(campaignId ? { ...rest, campaignId } : rest);
        const index = position % token.length;
        fc.pre(token[index] !== character);
        const changed = token.slice(0, index) + character + token.slice(index + 1);
        // Act / Assess
        expect(verifyUnsubscribeToken(token)).toEqual(campaignId ? { ...rest, campaignId } : rest);
        expect(verifyUnsubscribeToken(changed)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('build the link on the public API URL and the RFC 8058 headers', () => {
    // Act
    const url = unsubscribeUrl(subject);
    // Assess
    expect(url).toBe(`https://api.example.test/api/unsubscribe/${unsubscribeToken(subject)}`);
    expect(unsubscribeHeaders(url)).toEqual([
      { name: 'List-Unsubscribe', value: `<${url}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ]);
  });
});
