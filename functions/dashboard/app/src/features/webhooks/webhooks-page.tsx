import './webhooks.css';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { WEBHOOK_EVENT_KINDS } from '../../../../../../shared/webhooks/event-kinds';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Field, Loading, StatusBadge } from '../../components/ui';
import type { WebhookWithSecret } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';
import { useIsOwner } from '../../lib/session';
import { useCreateWebhook, useWebhooks } from './api';
import { SecretReveal } from './secret-reveal';

/** /webhooks (owners): the project's endpoints with their kinds and state, and a new one. */
export function WebhooksPage() {
  const owner = useIsOwner();
  const webhooks = useWebhooks();
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);

  if (!owner) {
    return (
      <>
        <PageHeader title="Webhooks" />
        <p>Only owners see and change the project&apos;s webhook endpoints.</p>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Webhooks" />
      <p className="muted">Each endpoint receives the events it subscribes to as signed POSTs (Standard Webhooks), retried for about a day when it fails.</p>
      <NewWebhook onCreated={setCreated} />
      {created && <SecretReveal webhook={created} what="The endpoint is created" onDone={() => setCreated(null)} />}
      <ErrorNote error={webhooks.error} />
      {webhooks.isPending ? (
        <Loading what="webhooks" />
      ) : (
        <DataTable
          caption="Webhook endpoints"
          columns={[
            {
              header: 'Endpoint',
              className: 'webhook-url',
              cell: (webhook) => (
                <>
                  <Link to={`/webhooks/${webhook.id}`}>{webhook.url}</Link>
                  {webhook.description && <div className="muted">{webhook.description}</div>}
                </>
              ),
            },
            { header: 'Events', className: 'webhook-events', cell: (webhook) => webhook.events.join(', ') },
            {
              header: 'Status',
              cell: (webhook) => (
                <>
                  <StatusBadge status={webhook.status} />
                  {webhook.failingSince && <div className="muted">failing since {formatDateTime(webhook.failingSince)}</div>}
                </>
              ),
            },
          ]}
          rows={webhooks.data?.items}
          rowKey={(webhook) => webhook.id}
          empty="No endpoints yet: add the URL that should receive events."
        />
      )}
    </>
  );
}

/** The form of a new endpoint: its URL, a description, and every event or a choice of kinds and tracked events. */
function NewWebhook({ onCreated }: { onCreated: (webhook: WebhookWithSecret) => void }) {
  const [everyEvent, setEveryEvent] = useState(true);
  const create = useCreateWebhook(onCreated);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    const tracked = String(form.get('tracked') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => `event:${name}`);
    const events = everyEvent ? ['*'] : [...form.getAll('kind').map(String), ...tracked];
    const description = String(form.get('description') ?? '').trim();
    create.mutate(
      { url: String(form.get('url')).trim(), events, ...(description ? { description } : {}) },
      {
        onSuccess: () => {
          target.reset();
          setEveryEvent(true);
        },
      },
    );
  };

  return (
    <form className="panel webhook-form" onSubmit={submit} aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New endpoint</h2>
      <div className="inline-form">
        <Field label="URL" name="url" type="url" required maxLength={2048} placeholder="https://example.com/hooks/mailwright" />
        <Field label="Description" name="description" maxLength={500} placeholder="CRM sync" />
      </div>
      <fieldset>
        <legend>Events</legend>
        <label className="checkbox">
          <input type="checkbox" checked={everyEvent} onChange={(event) => setEveryEvent(event.target.checked)} /> Every event (*)
        </label>
        {!everyEvent && (
          <>
            <div className="webhook-kinds">
              {WEBHOOK_EVENT_KINDS.map((kind) => (
                <label key={kind} className="checkbox">
                  <input type="checkbox" name="kind" value={kind} /> {kind}
                </label>
              ))}
            </div>
            <Field label="Tracked events" name="tracked" hint="Names of your own events, comma-separated: each arrives as event:<name>." placeholder="signed_up, order.paid" />
          </>
        )}
      </fieldset>
      <button type="submit" className="primary" disabled={create.isPending}>
        Create endpoint
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}
