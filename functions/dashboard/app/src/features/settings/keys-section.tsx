import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { Pager, useCursorPages } from '../../components/pager';
import { CopyButton, ErrorNote, Field, SelectField } from '../../components/ui';
import type { CreatedApiKey } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useRotateApiKey } from './api';

const KINDS = [
  ['secret', 'Secret (server side, every route)'],
  ['public', 'Public (browsers, /v1/track only)'],
] as const;

export function KeysSection() {
  const pages = useCursorPages('keys');
  const [revealed, setRevealed] = useState<CreatedApiKey | null>(null);
  const keys = useApiKeys(pages.cursor);
  const create = useCreateApiKey(setRevealed);
  const rotate = useRotateApiKey(setRevealed);
  const revoke = useRevokeApiKey();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const target = event.currentTarget;
    create.mutate({ name: String(form.get('name')).trim(), kind: form.get('kind') === 'public' ? 'public' : 'secret' }, { onSuccess: () => target.reset() });
  };

  return (
    <section className="panel" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <form className="inline-form" onSubmit={submit}>
        <Field label="Key name" name="name" required maxLength={100} placeholder="Production server" />
        <SelectField label="Kind" name="kind" options={KINDS} />
        <button type="submit" className="primary" disabled={create.isPending}>
          Create key
        </button>
      </form>
      <ErrorNote error={create.error ?? rotate.error ?? revoke.error ?? keys.error} />
      {revealed && (
        <div className="reveal" role="status">
          <p>
            <strong>{revealed.name}</strong>: copy this key now. It is shown only this once.
          </p>
          <code className="record">{revealed.key}</code> <CopyButton text={revealed.key} label="the new key" />
          <button type="button" onClick={() => setRevealed(null)}>
            Done
          </button>
        </div>
      )}
      <DataTable
        caption="API keys"
        columns={[
          {
            header: 'Name',
            cell: (key) => (
              <>
                {key.name}
                {key.prefix && <code className="muted"> {key.prefix}…</code>}
              </>
            ),
          },
          { header: 'Kind', cell: (key) => key.kind },
          { header: 'Created', cell: (key) => formatDateTime(key.createdAt) },
          { header: 'Last used', cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never') },
          {
            header: <span className="visually-hidden">Actions</span>,
            className: 'row-actions',
            cell: (key) => (
              <>
                <ConfirmButton
                  question={{ title: `Rotate ${key.name}?`, message: 'A new key of the same name and kind is made and shown once; the old one stops working at once.', confirmLabel: 'Rotate key' }}
                  onConfirm={() => rotate.mutate(key.id)}
                >
                  Rotate
                </ConfirmButton>
                <ConfirmButton className="danger" question={{ title: `Revoke ${key.name}?`, message: 'Every request with this key is refused from now on.', confirmLabel: 'Revoke key' }} onConfirm={() => revoke.mutate(key.id)}>
                  Revoke
                </ConfirmButton>
              </>
            ),
          },
        ]}
        rows={keys.data?.items}
        rowKey={(key) => key.id}
      />
      <Pager pages={pages} nextCursor={keys.data?.nextCursor} total={keys.data?.total} label="API keys" />
    </section>
  );
}
