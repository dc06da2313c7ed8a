import './webhooks.css';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, StatusBadge } from '../../components/ui';
import type { WebhookWithSecret } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';
import { useDeleteWebhook, useDeliveries, useReplayDelivery, useRotateWebhookSecret, useSendWebhookTest, useSetWebhookEnabled, useWebhook } from './api';
import { SecretReveal } from './secret-reveal';

/** /webhooks/:id: an endpoint, what can be done to it, and its delivery log with replay. */
export function WebhookPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const webhook = useWebhook(id);
  const [rotated, setRotated] = useState<WebhookWithSecret | null>(null);
  const setEnabled = useSetWebhookEnabled(id);
  const rotate = useRotateWebhookSecret(id, setRotated);
  const test = useSendWebhookTest(id);
  const remove = useDeleteWebhook(id);

  if (webhook.isPending) return <Loading what="the endpoint" />;
  if (webhook.error) return <ErrorNote error={webhook.error} />;
  const { url, description, events, enabled, status, disabledReason, failingSince, createdAt } = webhook.data;

  return (
    <>
      <PageHeader title={description || 'Webhook endpoint'}>
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          Send test event
        </button>
        <button type="button" onClick={() => setEnabled.mutate(!enabled)} disabled={setEnabled.isPending}>
          {enabled ? 'Disable' : 'Enable'}
        </button>
        <ConfirmButton
          question={{ title: 'Rotate the signing secret?', message: 'A new secret is shown once. For 24 hours deliveries are signed with both the old and the new one, so your receiver can switch.', confirmLabel: 'Rotate secret' }}
          onConfirm={() => rotate.mutate(undefined)}
        >
          Rotate secret
        </ConfirmButton>
        <ConfirmButton
          className="danger"
          question={{ title: 'Delete this endpoint?', message: `${url} receives nothing more; its pending deliveries end failed.`, confirmLabel: 'Delete endpoint' }}
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/webhooks') })}
        >
          Delete
        </ConfirmButton>
      </PageHeader>
      {test.isSuccess && (
        <p role="status" className="muted">
          A webhook.test event is on its way: it appears in the log below.
        </p>
      )}
      {rotated && <SecretReveal webhook={rotated} what="The secret is rotated" onDone={() => setRotated(null)} />}
      <ErrorNote error={setEnabled.error ?? rotate.error ?? test.error ?? remove.error} />
      <dl className="facts">
        <dt>URL</dt>
        <dd className="webhook-url">{url}</dd>
        <dt>Events</dt>
        <dd>{events.join(', ')}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={status} /> {disabledReason && <span className="webhook-reason">{disabledReason}</span>}
        </dd>
        <dt>Failing since</dt>
        <dd>{failingSince ? formatDateTime(failingSince) : '—'}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(createdAt)}</dd>
      </dl>
      <Deliveries id={id} />
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const pages = useCursorPages(id);
  const deliveries = useDeliveries(id, pages.cursor);
  const replay = useReplayDelivery(id);
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Delivery log</h2>
      <ErrorNote error={deliveries.error ?? replay.error} />
      <DataTable
        className="records"
        caption="Deliveries"
        columns={[
          { header: 'Event', label: 'Event', cell: (delivery) => delivery.type },
          { header: 'Created', label: 'Created', cell: (delivery) => formatDateTime(delivery.createdAt) },
          { header: 'Status', label: 'Status', cell: (delivery) => <StatusBadge status={delivery.status} /> },
          { header: 'Attempts', label: 'Attempts', cell: (delivery) => delivery.attempts },
          {
            header: 'Last response',
            label: 'Last response',
            className: 'webhook-response',
            cell: (delivery) => (delivery.lastError ? <code>{delivery.lastError}</code> : (delivery.lastStatusCode ?? '—')),
          },
          { header: 'Last attempt', label: 'Last attempt', cell: (delivery) => formatDateTime(delivery.lastAttemptAt) },
          { header: 'Next attempt', label: 'Next attempt', cell: (delivery) => formatDateTime(delivery.nextAttemptAt) },
          {
            header: <span className="visually-hidden">Actions</span>,
            className: 'row-actions',
            cell: (delivery) => (
              <button type="button" aria-label={`Replay ${delivery.type} ${delivery.id}`} disabled={delivery.status === 'pending' || replay.isPending} onClick={() => replay.mutate(delivery.id)}>
                Replay
              </button>
            ),
          },
        ]}
        rows={deliveries.data?.items}
        rowKey={(delivery) => delivery.id}
        empty="No deliveries yet: send a test event."
      />
      <Pager pages={pages} nextCursor={deliveries.data?.nextCursor} label="Deliveries" />
    </section>
  );
}
