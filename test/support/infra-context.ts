import { readFileSync } from 'node:fs';

/** The context `cdk synth` runs with (cdk.json), so the tests synthesize the stack users deploy. */
export const cdkJsonContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

/** cdk.json's context, no bundling (fast), construct paths in the metadata (for idAt). */
export const assertionContext = (context: Record<string, unknown> = {}) => ({ ...cdkJsonContext, 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, ...context });
