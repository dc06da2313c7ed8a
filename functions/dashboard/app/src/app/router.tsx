import { createBrowserRouter, Navigate, Outlet, useLocation } from 'react-router';
import { routerBasename } from '../lib/base';
import { useSession } from '../lib/session';
import { AcceptInvitationPage } from '../features/auth/accept-invitation';
import { PasswordResetPage } from '../features/auth/password-reset';
import { SignInPage } from '../features/auth/sign-in';
import { CampaignPage } from '../features/campaigns/campaign-page';
import { CampaignsPage } from '../features/campaigns/campaigns-page';
import { ContactPage } from '../features/contacts/contact-page';
import { ContactsPage } from '../features/contacts/contacts-page';
import { ExportPage } from '../features/contacts/export-page';
import { ImportPage } from '../features/contacts/import-page';
import { DomainsPage } from '../features/domains/domains-page';
import { EmailPage } from '../features/emails/email-page';
import { EmailsPage } from '../features/emails/emails-page';
import { EventsPage } from '../features/events/events-page';
import { OverviewPage } from '../features/overview/overview-page';
import { EditSegmentPage, NewSegmentPage } from '../features/segments/segment-editor';
import { SegmentPage } from '../features/segments/segment-page';
import { SegmentsPage } from '../features/segments/segments-page';
import { SettingsPage } from '../features/settings/settings-page';
import { TemplatePage } from '../features/templates/template-page';
import { TemplatesPage } from '../features/templates/templates-page';
import { WebhookPage } from '../features/webhooks/webhook-page';
import { WebhooksPage } from '../features/webhooks/webhooks-page';
import { WorkflowPage } from '../features/workflows/workflow-page';
import { WorkflowsPage } from '../features/workflows/workflows-page';
import { Layout } from './layout';

function RequireSession() {
  const session = useSession();
  const location = useLocation();
  return session ? <Outlet /> : <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
}

function SignedOutOnly() {
  return useSession() ? <Navigate to="/" replace /> : <Outlet />;
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
    </section>
  );
}

export const router = createBrowserRouter(
  [
    {
      element: <SignedOutOnly />,
      children: [
        { path: 'sign-in', element: <SignInPage /> },
        { path: 'invitations/accept', element: <AcceptInvitationPage /> },
        { path: 'password-reset', element: <PasswordResetPage /> },
      ],
    },
    {
      element: <RequireSession />,
      children: [
        {
          element: <Layout />,
          children: [
            { index: true, element: <OverviewPage /> },
            { path: 'contacts', element: <ContactsPage /> },
            { path: 'contacts/import', element: <ImportPage /> },
            { path: 'contacts/export', element: <ExportPage /> },
            { path: 'contacts/:id', element: <ContactPage /> },
            { path: 'emails', element: <EmailsPage /> },
            { path: 'emails/:id', element: <EmailPage /> },
            { path: 'events', element: <EventsPage /> },
            { path: 'segments', element: <SegmentsPage /> },
            { path: 'segments/new', element: <NewSegmentPage /> },
            { path: 'segments/:id', element: <SegmentPage /> },
            { path: 'segments/:id/edit', element: <EditSegmentPage /> },
            { path: 'templates', element: <TemplatesPage /> },
            { path: 'templates/new', element: <TemplatePage /> },
            { path: 'templates/:id', element: <TemplatePage /> },
            { path: 'campaigns', element: <CampaignsPage /> },
            { path: 'campaigns/new', element: <CampaignPage /> },
            { path: 'campaigns/:id', element: <CampaignPage /> },
            { path: 'workflows', element: <WorkflowsPage /> },
            { path: 'workflows/:id', element: <WorkflowPage /> },
            { path: 'domains', element: <DomainsPage /> },
            { path: 'webhooks', element: <WebhooksPage /> },
            { path: 'webhooks/:id', element: <WebhookPage /> },
            { path: 'settings', element: <SettingsPage /> },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ],
  { basename: routerBasename },
);
