import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConfirm } from '../../components/confirm';
import { Pager, useCursorPages } from '../../components/pager';
import { CopyButton, ErrorNote, Field, SelectField } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import type { CreatedApiKey } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';

const KINDS = [
  ['secret', 'Secret (server side, every route)'],
  ['public', 'Public (browsers, /v1/track only)'],
] as const;

export function KeysSection() {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const pages = useCursorPages('keys');
  const [revealed, setRevealed] = useState<CreatedApiKey | null>(null);
  const keys = useQuery({ queryKey: ['keys', pages.cursor], queryFn: () => unwrap(api.GET('/keys', {})) });
  const settle = { onSettled: () => queryClient.invalidateQueries({ queryKey: ['keys'] }) };
  const create = useMutation({ mutationFn: (body: { name: string; kind: 'secret' | 'public' }) => unwrap(api.POST('/keys', { body })), onSuccess: setRevealed, ...settle });
  const rotate = useMutation({ mutationFn: (id: string) => unwrap(api.POST('/keys/{id}/rotate', { params: { path: { id } } })), onSuccess: setRevealed, ...settle });
  const revoke = useMutation({ mutationFn: (id: string) => unwrap(api.DELETE('/keys/{id}', { params: { path: { id } } })), ...settle });

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
      <div className="table-wrap" tabIndex={0}>
        <table>
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data?.items.map((key) => (
              <tr key={key.id}>
                <td>
                  {key.name}
                  {key.prefix && <code className="muted"> {key.prefix}…</code>}
                </td>
                <td>{key.kind}</td>
                <td>{formatDateTime(key.createdAt)}</td>
                <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'}</td>
                <td className="row-actions">
                  <button
                    type="button"
                    onClick={async () => {
                      if (await confirm({ title: `Rotate ${key.name}?`, message: 'A new key of the same name and kind is made and shown once; the old one stops working at once.', confirmLabel: 'Rotate key' })) rotate.mutate(key.id);
                    }}
                  >
                    Rotate
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={async () => {
                      if (await confirm({ title: `Revoke ${key.name}?`, message: 'Every request with this key is refused from now on.', confirmLabel: 'Revoke key' })) revoke.mutate(key.id);
                    }}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager pages={pages} nextCursor={keys.data?.nextCursor} total={keys.data?.total} label="API keys" />
    </section>
  );
}
