import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { assertionContext } from './infra-context';
import { STACK_TEMPLATE_VARIABLE } from './infra-setup';

/** A resource of a synthesized template, as the assertion tests read it. */
export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; Metadata?: Record<string, any> };

let stack: Template | undefined;
/**
 * The stack as cdk.json's context makes it, synthesized once per run (test/support/infra-setup.ts).
 * Tests of other context values, props or the construct tree itself synthesize their own.
 */
export function stackTemplate(): Template {
  const file = process.env[STACK_TEMPLATE_VARIABLE];
  if (!file) throw new Error(`${STACK_TEMPLATE_VARIABLE} is unset: run the infra tests through jest's infra project (jest.config.js), whose global setup synthesizes the stack`);
  return (stack ??= Template.fromJSON(JSON.parse(readFileSync(file, 'utf8'))));
}

/**
 * Where a test file's apps write their cloud assembly, removed after the file: without an outdir
 * each App makes a temp folder of its own and leaves it behind (about 25 MB per `npm test`).
 */
const outdir = mkdtempSync(path.join(tmpdir(), 'mailwright-assertions-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** An app for assertions: cdk.json's context, no bundling (fast), construct paths in the metadata (for idAt). */
export const assertionApp = (context: Record<string, unknown> = {}) => new App({ outdir, context: assertionContext(context) });

/** The logical id of the one resource of `type` at construct path Mailwright/`path`. */
export function idAt(template: Template, type: string, path: string): string {
  const found = Object.keys(template.findResources(type, { Metadata: { 'aws:cdk:path': `Mailwright/${path}` } }));
  if (found.length !== 1) throw new Error(`Expected one ${type} at ${path}, found ${found.length}`);
  return found[0]!;
}
