import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';

/** A resource of a synthesized template, as the assertion tests read it. */
export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; Metadata?: Record<string, any> };

/** The context `cdk synth` runs with (cdk.json), so the tests synthesize the stack users deploy. */
export const cdkJsonContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

/**
 * Where a test file's apps write their cloud assembly, removed after the file: without an outdir
 * each App makes a temp folder of its own and leaves it behind (about 25 MB per `npm test`).
 */
const outdir = mkdtempSync(path.join(tmpdir(), 'mailwright-assertions-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** An app for assertions: cdk.json's context, no bundling (fast), construct paths in the metadata (for idAt). */
export const assertionApp = (context: Record<string, unknown> = {}) =>
  new App({ outdir, context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, ...context } });

/** The logical id of the one resource of `type` at construct path Mailwright/`path`. */
export function idAt(template: Template, type: string, path: string): string {
  const found = Object.keys(template.findResources(type, { Metadata: { 'aws:cdk:path': `Mailwright/${path}` } }));
  if (found.length !== 1) throw new Error(`Expected one ${type} at ${path}, found ${found.length}`);
  return found[0]!;
}
