import { createResolver, UnresolvableError, type PhysicalResource } from '../../../infra/local/intrinsics';
import { matchesPattern } from '../../../infra/local/event-pattern';

const physical = new Map<string, PhysicalResource>([
  ['SendQueue1F034DCA', { ref: 'http://127.0.0.1:9324/000000000000/send', attributes: { Arn: 'arn:aws:sqs:us-east-1:000000000000:send' } }],
  ['Secret1', { ref: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:Mailwright-Secret-local', attributes: {} }],
  ['ApiF70053CD', { ref: 'local', attributes: { RootResourceId: 'root' } }],
]);
const resolve = createResolver({ physical, secretValue: (arn) => (arn.endsWith('Secret-local') ? 's3cr3t' : 'unknown') });

describe('CloudFormation intrinsics, resolved against the local resources', () => {
  it('resolves Ref, Fn::GetAtt (both forms), pseudo parameters and Fn::Join as CloudFormation does', () => {
    expect(resolve({ Ref: 'SendQueue1F034DCA' })).toBe('http://127.0.0.1:9324/000000000000/send');
    expect(resolve({ 'Fn::GetAtt': ['SendQueue1F034DCA', 'Arn'] })).toBe('arn:aws:sqs:us-east-1:000000000000:send');
    expect(resolve({ 'Fn::GetAtt': 'SendQueue1F034DCA.Arn' })).toBe('arn:aws:sqs:us-east-1:000000000000:send');
    expect(resolve({ 'Fn::Join': ['', ['https://', { Ref: 'ApiF70053CD' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/api']] })).toBe('https://local.execute-api.us-east-1.amazonaws.com/api');
  });

  it('resolves Fn::Sub, Fn::Select and Fn::Split, and nested values in objects and arrays', () => {
    expect(resolve({ 'Fn::Sub': ['${Queue} in ${AWS::AccountId} (${SendQueue1F034DCA.Arn})', { Queue: { Ref: 'SendQueue1F034DCA' } }] })).toBe('http://127.0.0.1:9324/000000000000/send in 000000000000 (arn:aws:sqs:us-east-1:000000000000:send)');
    expect(resolve({ 'Fn::Select': [3, { 'Fn::Split': [':', { 'Fn::GetAtt': ['SendQueue1F034DCA', 'Arn'] }] }] })).toBe('us-east-1');
    expect(resolve({ Variables: { QUEUE: { Ref: 'SendQueue1F034DCA' }, LIST: [{ Ref: 'ApiF70053CD' }] } })).toEqual({ Variables: { QUEUE: 'http://127.0.0.1:9324/000000000000/send', LIST: ['local'] } });
  });

  it('resolves Secrets Manager dynamic references to the local secret value', () => {
    expect(resolve({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: 'Secret1' }, ':SecretString:::}}']] })).toBe('s3cr3t');
  });

  it('refuses what the local stack does not have, naming it', () => {
    expect(() => resolve({ Ref: 'Missing' })).toThrow(new UnresolvableError('The local stack has no resource Missing'));
    expect(() => resolve({ 'Fn::GetAtt': ['SendQueue1F034DCA', 'StreamArn'] })).toThrow('no attribute StreamArn of SendQueue1F034DCA');
  });
});

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
