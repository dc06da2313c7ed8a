import { matchesPattern } from '../../../../../../infra/local/lambda/event-sources/event-pattern';

describe('event patterns (EventBridge rules and Lambda filter criteria)', () => {
  const sesRule = { source: ['aws.ses'], 'detail-type': ['Email Delivered', 'Email Bounced'], detail: { mail: { tags: { 'ses:configuration-set': ['mailwright'] } } } };
  const event = { source: 'aws.ses', 'detail-type': 'Email Bounced', detail: { mail: { tags: { 'ses:configuration-set': ['mailwright'], 'ses:from-domain': ['example.com'] } } } };

  it('matches literals against values and array values, nested objects key by key', () => {
    expect(matchesPattern(sesRule, event)).toBe(true);
    expect(matchesPattern(sesRule, { ...event, 'detail-type': 'Email Opened' })).toBe(false);
    expect(matchesPattern(sesRule, { ...event, detail: { mail: { tags: { 'ses:configuration-set': ['other'] } } } })).toBe(false);
    expect(matchesPattern(sesRule, { source: 'aws.ses', 'detail-type': 'Email Bounced' })).toBe(false);
  });

  it('matches prefix, suffix, anything-but, exists and numeric rules', () => {
    const record = { dynamodb: { Keys: { SK: { S: 'CONTACT#01' } }, SizeBytes: 120 } };
    expect(matchesPattern({ dynamodb: { Keys: { SK: { S: [{ prefix: 'EVENT#' }, { prefix: 'CONTACT#' }] } } } }, record)).toBe(true);
    expect(matchesPattern({ dynamodb: { Keys: { SK: { S: [{ prefix: 'EVENT#' }] } } } }, record)).toBe(false);
    expect(matchesPattern({ dynamodb: { Keys: { SK: { S: [{ suffix: '#01' }] } } } }, record)).toBe(true);
    expect(matchesPattern({ dynamodb: { Keys: { SK: { S: [{ 'anything-but': { prefix: 'CONTACT#' } }] } } } }, record)).toBe(false);
    expect(matchesPattern({ dynamodb: { NewImage: [{ exists: false }] } }, record)).toBe(true);
    expect(matchesPattern({ dynamodb: { SizeBytes: [{ numeric: ['>', 100, '<=', 120] }] } }, record)).toBe(true);
    expect(matchesPattern({ dynamodb: { SizeBytes: [{ numeric: ['<', 100] }] } }, record)).toBe(false);
  });
});
