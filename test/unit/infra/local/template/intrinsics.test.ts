import { createResolver, UnresolvableError, type PhysicalResource } from '../../../../../infra/local/template/intrinsics';

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
