import { App } from 'aws-cdk-lib';
import { MailwrightStack } from './stack';

/**
 * `npm run synth` / `npm run deploy`. Environment-agnostic (no account or region), so synth needs
 * no credentials. Context:
 *   -c throwaway=true          destroy the table and bucket with the stack, no point-in-time recovery
 *   -c rateLimitPerMinute=N    per-project request limit enforced in the functions (default 1000)
 */
const app = new App();
const throwaway = [true, 'true'].includes(app.node.tryGetContext('throwaway'));
new MailwrightStack(app, 'Mailwright', { retainData: !throwaway });
app.synth();
