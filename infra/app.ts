import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { addBestPracticeChecks } from './nag';
import { MailwrightStack } from './stack';

/**
 * `npm run synth` / `npm run deploy`. Environment-agnostic (no account or region), so synth needs
 * no credentials. Context:
 *   -c throwaway=true          destroy the table and bucket with the stack, no point-in-time recovery
 *   -c rateLimitPerMinute=N    per-project request limit enforced in the functions (default 1000)
 *   -c alarmEmail=ops@example.com   subscribes this address to the alarm topic
 *   -c pauseBounceRate=0.05 -c pauseBounceMinSends=200 -c pauseComplaintRate=0.001 -c pauseComplaintMinSends=1000
 *                              the campaigns' deliverability guard (these are the defaults; /docs "Campaigns")
 */
const app = new App();
const throwaway = [true, 'true'].includes(app.node.tryGetContext('throwaway'));
new MailwrightStack(app, 'Mailwright', { retainData: !throwaway });
addBestPracticeChecks(app);
const assembly = app.synth(); // throws, naming the report, if cdk-nag has unacknowledged findings
console.error(`cdk-nag (AwsSolutions, Serverless): no unacknowledged findings. Report: ${path.join(assembly.directory, 'validation-report.json')}`);
