import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConfirm } from '../../components/confirm';
import { CopyButton, ErrorNote, Field, Loading, PageHeader, StatusBadge } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { useIsOwner } from '../auth/session';

export function DomainsPage() {
  const owner = useIsOwner();
  const queryClient = useQueryClient();
  // GET /domains answers every domain of the project in one page.
  const domains = useQuery({ queryKey: ['domains', 'list'], queryFn: () => unwrap(api.GET('/domains', {})) });
  const add = useMutation({
    mutationFn: (domain: string) => unwrap(api.POST('/domains', { body: { domain } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['domains', 'list'] }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    add.mutate(String(new FormData(target).get('domain')).trim(), { onSuccess: () => target.reset() });
  };

  return (
    <>
      <PageHeader title="Domains" />
      {owner ? (
        <form className="inline-form" onSubmit={submit}>
          <Field label="Sending domain" name="domain" required maxLength={253} placeholder="mail.example.com" />
          <button type="submit" className="primary" disabled={add.isPending}>
            Add domain
          </button>
        </form>
      ) : (
        <p>Only owners add and remove domains.</p>
      )}
      <ErrorNote error={add.error ?? domains.error} />
      {domains.isPending && <Loading what="domains" />}
      {domains.data?.items.map((domain) => <DomainCard key={domain.id} id={domain.id} owner={owner} />)}
      {domains.data?.items.length === 0 && <p>No domains yet: add the domain you send from.</p>}
    </>
  );
}

type Domain = Awaited<ReturnType<typeof readDomain>>;
const readDomain = (id: string) => unwrap(api.GET('/domains/{id}', { params: { path: { id } } }));

/** One domain, read on its own: GET /domains/{id} asks SES for the status, which is the re-check. */
function DomainCard({ id, owner }: { id: string; owner: boolean }) {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState<string | null>(null);
  const domain = useQuery({ queryKey: ['domains', 'one', id], queryFn: () => readDomain(id) });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/domains/{id}', { params: { path: { id } } })),
    // The list drops this card first; then its own query goes, so nothing reads the removed domain.
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['domains', 'list'] });
      queryClient.removeQueries({ queryKey: ['domains', 'one', id] });
    },
  });
  if (!domain.data) return <ErrorNote error={domain.error} />;
  const { domain: name, status, records, checkedAt, createdAt }: Domain = domain.data;

  return (
    <section className="panel domain" aria-labelledby={`domain-${id}`}>
      <header className="domain-header">
        <h2 id={`domain-${id}`}>{name}</h2>
        <StatusBadge status={status} />
        <div className="page-actions">
          <button type="button" disabled={domain.isFetching} onClick={() => void domain.refetch().then(() => setChecked(new Date().toISOString()))}>
            {domain.isFetching ? 'Checking…' : 'Re-check'}
          </button>
          {owner && (
            <button
              type="button"
              className="danger"
              onClick={async () => {
                if (await confirm({ title: `Remove ${name}?`, message: 'Mail can no longer be sent from this domain until it is added and verified again.', confirmLabel: 'Remove domain' })) remove.mutate();
              }}
            >
              Remove
            </button>
          )}
        </div>
      </header>
      <p className="muted">
        Added {formatDateTime(createdAt)} · last checked {formatDateTime(checkedAt)}
        {checked && (
          <span role="status" className="visually-hidden">
            Status re-checked: {status}
          </span>
        )}
      </p>
      <ErrorNote error={remove.error} />
      <div className="table-wrap" tabIndex={0}>
        <table className="records">
          <caption>DNS records to publish</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">Purpose</th>
            </tr>
          </thead>
          <tbody>
            {records.map((record) => (
              <tr key={`${record.type}-${record.name}-${record.value}`}>
                <td data-label="Type">{record.type}</td>
                <td data-label="Name">
                  <code className="record">{record.name}</code> <CopyButton text={record.name} label={`${record.type} ${record.purpose} name`} />
                </td>
                <td data-label="Value">
                  <code className="record">{record.value}</code> <CopyButton text={record.value} label={`${record.type} ${record.purpose} value`} />
                </td>
                <td data-label="Purpose">{record.purpose}</td>
              </tr>
            ))}
            {records.length === 0 && (
              <tr>
                <td colSpan={4}>No records to publish: this domain is managed outside Mailwright.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
