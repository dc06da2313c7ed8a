import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading, StatusBadge } from '../../components/ui';
import { formatDateTime, formatValue } from '../../lib/format';
import { patchContact, useContact, useContactEmails, useContactEvents, useContactMutation, useDeleteContact } from './api';
import { dataPatch, toRows, type DataRow } from './data-editor';

export function ContactPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const contact = useContact(id);
  const update = useContactMutation((body: Parameters<typeof patchContact>[1]) => patchContact(id, body));
  const remove = useDeleteContact(id, () => navigate('/contacts'));

  if (contact.isPending) return <Loading what="the contact" />;
  if (contact.error) return <ErrorNote error={contact.error} />;
  const { email, subscribed, data, createdAt, updatedAt } = contact.data;

  return (
    <>
      <PageHeader title={email}>
        <ConfirmButton className="danger" question={{ title: 'Delete this contact?', message: `${email} and its data are removed for good.`, confirmLabel: 'Delete contact' }} onConfirm={() => remove.mutate()}>
          Delete
        </ConfirmButton>
      </PageHeader>
      <ErrorNote error={update.error ?? remove.error} />
      <dl className="facts">
        <dt>Subscribed</dt>
        <dd>
          <button type="button" role="switch" aria-checked={subscribed} aria-label="Subscribed" className="switch" disabled={update.isPending} onClick={() => update.mutate({ subscribed: !subscribed })}>
            <span aria-hidden="true">{subscribed ? 'On' : 'Off'}</span>
          </button>
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(updatedAt)}</dd>
      </dl>

      <DataEditor data={data} saving={update.isPending} onSave={(patch) => update.mutate({ data: patch })} />
      <ContactEvents contactId={id} />
      <ContactEmails email={email} />
    </>
  );
}

function DataEditor({ data, saving, onSave }: { data: Record<string, unknown>; saving: boolean; onSave: (patch: Record<string, unknown>) => void }) {
  const [rows, setRows] = useState<DataRow[]>(() => toRows(data));
  useEffect(() => setRows(toRows(data)), [data]);
  const setRow = (index: number, row: Partial<DataRow>) => setRows((current) => current.map((existing, at) => (at === index ? { ...existing, ...row } : existing)));

  return (
    <section aria-labelledby="data-title" className="panel">
      <h2 id="data-title">Data</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const patch = dataPatch(data, rows);
          if (Object.keys(patch).length) onSave(patch);
        }}
      >
        <div className="kv-rows">
          {rows.map((row, index) => (
            <div className="kv-row" key={index}>
              <input aria-label={`Key ${index + 1}`} value={row.key} maxLength={64} onChange={(event) => setRow(index, { key: event.target.value })} />
              <input aria-label={`Value of ${row.key || `key ${index + 1}`}`} value={row.value} maxLength={2000} onChange={(event) => setRow(index, { value: event.target.value })} />
              <button type="button" aria-label={`Remove ${row.key || `key ${index + 1}`}`} onClick={() => setRows((current) => current.filter((_, at) => at !== index))}>
                Remove
              </button>
            </div>
          ))}
          {rows.length === 0 && <p>No data yet.</p>}
        </div>
        <div className="actions">
          <button type="button" onClick={() => setRows((current) => [...current, { key: '', value: '' }])}>
            Add a key
          </button>
          <button type="submit" className="primary" disabled={saving}>
            Save data
          </button>
        </div>
      </form>
    </section>
  );
}

function ContactEvents({ contactId }: { contactId: string }) {
  const events = useContactEvents(contactId);
  return (
    <section aria-labelledby="contact-events-title">
      <h2 id="contact-events-title">Events</h2>
      <ErrorNote error={events.error} />
      {events.data && (
        <ul className="timeline">
          {events.data.items.map((event) => (
            <li key={event.id}>
              <strong>{event.name}</strong> <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time>
              {Object.keys(event.data).length > 0 && <code className="data">{formatValue(event.data)}</code>}
            </li>
          ))}
          {events.data.items.length === 0 && <li>No events yet.</li>}
        </ul>
      )}
      <Link to={`/events?contactId=${contactId}`}>All of its events</Link>
    </section>
  );
}

function ContactEmails({ email }: { email: string }) {
  const emails = useContactEmails(email);
  return (
    <section aria-labelledby="contact-emails-title">
      <h2 id="contact-emails-title">Emails</h2>
      <ErrorNote error={emails.error} />
      {emails.data && (
        <ul className="timeline">
          {emails.data.items.map((sent) => (
            <li key={sent.id}>
              <Link to={`/emails/${sent.id}`}>{sent.subject}</Link> <StatusBadge status={sent.status} /> <time dateTime={sent.createdAt}>{formatDateTime(sent.createdAt)}</time>
            </li>
          ))}
          {emails.data.items.length === 0 && <li>No emails sent to this contact yet.</li>}
        </ul>
      )}
    </section>
  );
}
