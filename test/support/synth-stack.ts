import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { MailwrightStack } from '../../infra/stack';
import { assertionContext } from './infra-context';

/** `tsx test/support/synth-stack.ts <file>`: the stack as cdk.json's context makes it, its template written to <file>. */
const [file] = process.argv.slice(2);
if (!file) throw new Error('Usage: tsx test/support/synth-stack.ts <template file>');
const outdir = mkdtempSync(path.join(tmpdir(), 'mailwright-assertions-'));
try {
  const app = new App({ outdir, context: assertionContext() });
  writeFileSync(file, JSON.stringify(Template.fromStack(new MailwrightStack(app, 'Mailwright')).toJSON()));
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
