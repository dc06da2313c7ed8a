import { Annotations, type Stack } from 'aws-cdk-lib';
import type { MailwrightFunction } from '../constructs/mailwright-function';
import type { Api } from './api';
import type { SharedResources } from './shared-resources';

/**
 * Dashboard accounts (README "Dashboard accounts"): the dashboard function signs access tokens
 * with the generated key (the authorizer checks them, infra/features/api.ts), serves the app under
 * the API's address, and with the members function mails invitations and password resets through
 * the send queue from the operator's address: -c dashboardMailFrom=dashboard@<a domain verified in SES>.
 */
export function addDashboard(stack: Stack, resources: SharedResources, api: Api): { dashboardMail: DashboardMail } {
  const dashboardMailFrom = emailContext(stack.node.tryGetContext('dashboardMailFrom'), 'dashboardMailFrom');
  if (!dashboardMailFrom) Annotations.of(stack).addWarningV2('mailwright:dashboardMailFrom', 'No -c dashboardMailFrom: dashboard invitations and password resets answer 503 until you deploy with a sender on a verified domain');
  const dashboardMail = { sendQueue: resources.queue('send'), ...(dashboardMailFrom ? { from: dashboardMailFrom } : {}) };
  api.function('dashboard').bindAccessTokenKey(resources.accessTokenKey).bindDashboardMail(dashboardMail).bindPublicApiUrl(api.publicApiUrl);
  api.function('members').bindDashboardMail(dashboardMail);
  // The template editor's previews (POST /templates/render) are linked at the API's address.
  api.function('templates').bindPublicApiUrl(api.publicApiUrl);
  return { dashboardMail };
}

/** Where dashboard mail is queued and from whom; other features' functions that mail users bind it too. */
export type DashboardMail = Parameters<MailwrightFunction['bindDashboardMail']>[0];

function emailContext(raw: unknown, name: string): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw)) throw new Error(`Context value ${name} must be an email address, got "${String(raw)}"`);
  return raw;
}
