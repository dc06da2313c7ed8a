import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { functionGroups } from '../../shared/http/routes';

const run = promisify(execFile);

/** `npm run synth` as a user runs it: offline, no AWS credentials, real esbuild bundling. */
describe('cdk synth', () => {
  const output = mkdtempSync(path.join(tmpdir(), 'mailwright-synth-'));
  afterAll(() => rmSync(output, { recursive: true, force: true }));

  it('synthesizes the stack with every function bundled, without credentials or network', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')));

    await run(process.execPath, [path.resolve('node_modules/aws-cdk/bin/cdk'), 'synth', '--quiet', '--output', output], {
      env: { ...env, AWS_EC2_METADATA_DISABLED: 'true', CDK_DISABLE_VERSION_CHECK: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    });

    const template = JSON.parse(readFileSync(path.join(output, 'Mailwright.template.json'), 'utf8'));
    const assets = JSON.parse(readFileSync(path.join(output, 'Mailwright.assets.json'), 'utf8'));
    const functions = Object.values(template.Resources as Record<string, { Type: string }>).filter((resource) => resource.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThanOrEqual(functionGroups.length + 2);
    expect(Object.keys(assets.files).length).toBeGreaterThanOrEqual(functions.length);
  }, 240_000);
});
