import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';

/** A resource of a synthesized template, as the assertion tests read it. */
export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; Metadata?: Record<string, any> };

/** The context `cdk synth` runs with (cdk.json), so the tests synthesize the stack users deploy. */
export const cdkJsonContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

/** An app for assertions: cdk.json's context, no bundling (fast), construct paths in the metadata (for idAt). */
export const assertionApp = (context: Record<string, unknown> = {}) =>
  new App({ context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, ...context } });

/** The logical id of the one resource of `type` at construct path Mailwright/`path`. */
export function idAt(template: Template, type: string, path: string): string {
  const found = Object.keys(template.findResources(type, { Metadata: { 'aws:cdk:path': `Mailwright/${path}` } }));
  if (found.length !== 1) throw new Error(`Expected one ${type} at ${path}, found ${found.length}`);
  return found[0]!;
}
