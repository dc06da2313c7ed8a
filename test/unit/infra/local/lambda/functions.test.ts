import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFunctionEnvironments, writeFunctionEnvironments } from '../../../../../infra/local/lambda/functions';
import type { CloudAssembly } from '../../../../../infra/local/template/cloud-assembly';
import type { Resolve } from '../../../../../infra/local/template/intrinsics';

const assembly = {
  directory: '/tmp/cdk.out',
  stackName: 'Mailwright',
  assetDirectory: () => '/tmp/asset',
  template: {
    Resources: {
      SenderFunction1: {
        Type: 'AWS::Lambda::Function',
        Properties: { FunctionName: 'mailwright-sender', Environment: { Variables: { TABLE_NAME: { Ref: 'Table' }, SEND_RATE_PER_SECOND: 14 } } },
      },
      DocsFunction2: { Type: 'AWS::Lambda::Function', Properties: { FunctionName: 'mailwright-docs' } },
      Table: { Type: 'AWS::DynamoDB::Table', Properties: {} },
    },
  },
} as unknown as CloudAssembly;

/** Resolves `{ Ref: 'Table' }` as the local stack names the table; everything else as it is. */
const resolve: Resolve = (value) => JSON.parse(JSON.stringify(value), (_, inner) => (inner && typeof inner === 'object' && inner.Ref === 'Table' ? 'mailwright' : inner));

describe('the functions’ environments for operator tools', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'mailwright-functions-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps each function’s resolved template environment, by name, readable only by its owner', () => {
    // Act
    writeFunctionEnvironments(dataDir, assembly, resolve);

    // Assess
    expect(readFunctionEnvironments(dataDir)).toEqual({
      'mailwright-sender': { TABLE_NAME: 'mailwright', SEND_RATE_PER_SECOND: '14' },
      'mailwright-docs': {},
    });
    expect(statSync(path.join(dataDir, 'function-environments.json')).mode & 0o777).toBe(0o600);
  });
});
