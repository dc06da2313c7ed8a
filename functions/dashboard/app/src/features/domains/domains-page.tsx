import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { CopyButton, ErrorNote, Field, Loading, StatusBadge } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useIsOwner } from '../../lib/session';
import { useAddDomain, useDomain, useDomains, useRemoveDomain } from './api';

export function DomainsPage() {
  const owner = useIsOwner();
  const domains = useDomains();
  const add = useAddDomain();

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

/** One domain, read on its own: its Re-check reads it again. */
function DomainCard({ id, owner }: { id: string; owner: boolean }) {
  const [checked, setChecked] = useState<string | null>(null);
  const domain = useDomain(id);
  const remove = useRemoveDomain(id);
  if (!domain.data) return <ErrorNote error={domain.error} />;
  const { domain: name, status, records, checkedAt, createdAt } = domain.data;

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
            <ConfirmButton
              className="danger"
              question={{ title: `Remove ${name}?`, message: 'Mail can no longer be sent from this domain until it is added and verified again.', confirmLabel: 'Remove domain' }}
              onConfirm={() => remove.mutate()}
            >
              Remove
            </ConfirmButton>
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
      <DataTable
        className="records"
        caption="DNS records to publish"
        showCaption
        columns={[
          { header: 'Type', label: 'Type', cell: (record) => record.type },
          {
            header: 'Name',
            label: 'Name',
            cell: (record) => (
              <>
                <code className="record">{record.name}</code> <CopyButton text={record.name} label={`${record.type} ${record.purpose} name`} />
              </>
            ),
          },
          {
            header: 'Value',
            label: 'Value',
            cell: (record) => (
              <>
                <code className="record">{record.value}</code> <CopyButton text={record.value} label={`${record.type} ${record.purpose} value`} />
              </>
            ),
          },
          { header: 'Purpose', label: 'Purpose', cell: (record) => record.purpose },
        ]}
        rows={records}
        rowKey={(record) => `${record.type}-${record.name}-${record.value}`}
        empty="No records to publish: this domain is managed outside Mailwright."
      />
    </section>
  );
}
