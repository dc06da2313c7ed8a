import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where the global setup leaves the template; test workers inherit it. */
export const STACK_TEMPLATE_VARIABLE = 'MAILWRIGHT_INFRA_STACK_TEMPLATE';

/**
 * Synthesizes the stack once for the whole infra run (each test file used to synthesize it in its
 * own beforeAll); the files read the template with stackTemplate() (test/support/infra-template.ts). In a
 * child process (test/support/synth-stack.ts, through tsx): the global setup is loaded as CommonJS,
 * where the stack's modules, which use import.meta, cannot run.
 */
export default function globalSetup() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mailwright-infra-')), 'Mailwright.template.json');
  execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'test/support/synth-stack.ts', file], { stdio: 'inherit' });
  process.env[STACK_TEMPLATE_VARIABLE] = file;
}
