import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { routes as routeTable, type Route } from '../shared/http/routes';
import { addApi } from './features/api';
import { addCampaigns } from './features/campaigns';
import { addDashboard } from './features/dashboard';
import { addImportsExports } from './features/imports-exports';
import { addObservability } from './features/observability';
import { addSegments } from './features/segments';
import { addSending } from './features/sending';
import { addSharedResources } from './features/shared-resources';
import { addWebhooks } from './features/webhooks';
import { addWorkflows } from './features/workflows';

export interface MailwrightStackProps extends StackProps {
  /** Keep the table (with point-in-time recovery) and the bucket when the stack goes. Default true. */
  retainData?: boolean;
  /** The route table to serve; only tests pass another one (default: shared/http/routes.ts). */
  routes?: readonly Route[];
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1000;
export const DEFAULT_SEND_RATE_PER_SECOND = 14;

/**
 * The whole service, one feature at a time (infra/features/, infra/README.md "The stack by
 * feature"). Every feature makes its resources in this stack's own scope, not in a construct of
 * its own: a construct would prefix the logical ids, and CloudFormation would replace the deployed
 * table, buckets, queues and secrets (losing their data) under the new ids.
 */
export class MailwrightStack extends Stack {
  constructor(scope: Construct, id: string, props: MailwrightStackProps = {}) {
    super(scope, id, props);
    const rateLimitPerMinute = positiveInteger(this.node.tryGetContext('rateLimitPerMinute'), DEFAULT_RATE_LIMIT_PER_MINUTE, 'rateLimitPerMinute');
    const sendRatePerSecond = positiveInteger(this.node.tryGetContext('sendRatePerSecond'), DEFAULT_SEND_RATE_PER_SECOND, 'sendRatePerSecond');

    const resources = addSharedResources(this, { retainData: props.retainData ?? true });
    const api = addApi(this, resources, { routes: props.routes ?? routeTable, rateLimitPerMinute });
    const { sender } = addSending(this, resources, api, { sendRatePerSecond });
    addSegments(this, resources, api);
    addImportsExports(this, resources, api);
    const { dashboardMail } = addDashboard(this, resources, api);
    // Before campaigns: the scheduler role's grants are listed in this order in the deployed stack.
    addWorkflows(this, resources, api);
    addWebhooks(this, resources, api, { dashboardMail });
    addCampaigns(this, resources, api, { sendRatePerSecond });

    // Alarms (to an SNS topic; -c alarmEmail=… subscribes an address) and the CloudWatch dashboard.
    const alarmEmail = this.node.tryGetContext('alarmEmail') as string | undefined;
    const { topic: alarmTopic, dashboard } = addObservability(this, { api: api.restApi, sender, ...(alarmEmail ? { alarmEmail } : {}) });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: dashboard.dashboardName });
  }
}

function positiveInteger(raw: unknown, fallback: number, name: string): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`Context value ${name} must be a positive integer, got "${String(raw)}"`);
  return value;
}
