import { createHmac } from 'node:crypto';
import { unsubscribeHeaders, unsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from '../../../shared/unsubscribe/token';

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
