import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useConfirm } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, Loading, SelectField } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { createContact, deleteContact, forEachContact, patchContact, useContactMutation, useContacts } from './api';

const SUBSCRIBED_OPTIONS = [
  ['', 'All'],
  ['true', 'Subscribed'],
  ['false', 'Unsubscribed'],
] as const;

export function ContactsPage() {
  const confirm = useConfirm();
  const [search, setSearch] = useState('');
  const [subscribed, setSubscribed] = useState<'' | 'true' | 'false'>('');
  const filterKey = `${search}|${subscribed}`;
  const pages = useCursorPages(filterKey);
  const contacts = useContacts({ ...(search ? { search } : {}), ...(subscribed ? { subscribed } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<string | null>(null);
  const bulk = useContactMutation(async ({ action, ids }: { action: 'subscribe' | 'unsubscribe' | 'delete'; ids: string[] }) => {
    const failed = await forEachContact(ids, (id) => (action === 'delete' ? deleteContact(id) : patchContact(id, { subscribed: action === 'subscribe' })));
    setSelected(new Set(failed));
    setOutcome(`${ids.length - failed.length} of ${ids.length} contacts ${action === 'delete' ? 'deleted' : `${action}d`}${failed.length ? `; ${failed.length} failed and stay selected` : ''}.`);
  });
  const create = useContactMutation(createContact);

  const items = contacts.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((contact) => selected.has(contact.id));
  const toggle = (id: string) => setSelected((current) => {
    const next = new Set(current);
    if (!next.delete(id)) next.add(id);
    return next;
  });

  const runBulk = async (action: 'subscribe' | 'unsubscribe' | 'delete') => {
    const ids = [...selected];
    if (action === 'delete' && !(await confirm({ title: `Delete ${ids.length} contacts?`, message: 'Their data and subscription are removed for good. Events already recorded stay.', confirmLabel: 'Delete contacts' }))) return;
    bulk.mutate({ action, ids });
  };

  const submitCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const target = event.currentTarget;
    create.mutate({ email: String(form.get('email')), subscribed: form.get('subscribed') === 'on' }, { onSuccess: () => target.reset() });
  };

  return (
    <>
      <PageHeader title="Contacts">
        <Link className="button" to="/contacts/import">
          Import CSV
        </Link>
        <Link className="button" to="/contacts/export">
          Export
        </Link>
      </PageHeader>

      <details className="panel">
        <summary>Add a contact</summary>
        <form onSubmit={submitCreate} className="inline-form">
          <Field label="Email" name="email" type="email" required maxLength={254} />
          <label className="checkbox">
            <input type="checkbox" name="subscribed" defaultChecked /> Subscribed
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            Add
          </button>
          <ErrorNote error={create.error} />
          {create.isSuccess && <p role="status">Contact saved.</p>}
        </form>
      </details>

      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <Field label="Search by email" type="search" value={search} onChange={(event) => setSearch(event.target.value)} maxLength={254} placeholder="@example.com" />
        <SelectField label="Subscription" value={subscribed} onChange={(event) => setSubscribed(event.target.value as typeof subscribed)} options={SUBSCRIBED_OPTIONS} />
      </form>

      <div className="bulk-bar" role="toolbar" aria-label="Selected contacts">
        <span>{selected.size} selected</span>
        <button type="button" disabled={!selected.size || bulk.isPending} onClick={() => void runBulk('subscribe')}>
          Subscribe
        </button>
        <button type="button" disabled={!selected.size || bulk.isPending} onClick={() => void runBulk('unsubscribe')}>
          Unsubscribe
        </button>
        <button type="button" className="danger" disabled={!selected.size || bulk.isPending} onClick={() => void runBulk('delete')}>
          Delete
        </button>
      </div>
      {outcome && <p role="status">{outcome}</p>}

      <ErrorNote error={contacts.error} />
      {contacts.isPending ? (
        <Loading what="contacts" />
      ) : (
        <DataTable
          caption="Contacts"
          columns={[
            {
              header: <input type="checkbox" aria-label="Select every contact on this page" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((contact) => contact.id)))} />,
              cell: (contact) => <input type="checkbox" aria-label={`Select ${contact.email}`} checked={selected.has(contact.id)} onChange={() => toggle(contact.id)} />,
            },
            { header: 'Email', cell: (contact) => <Link to={`/contacts/${contact.id}`}>{contact.email}</Link> },
            { header: 'Subscribed', cell: (contact) => (contact.subscribed ? 'Yes' : 'No') },
            { header: 'Created', cell: (contact) => formatDateTime(contact.createdAt) },
          ]}
          rows={items}
          rowKey={(contact) => contact.id}
          empty="No contacts match."
        />
      )}
      <Pager pages={pages} nextCursor={contacts.data?.nextCursor} total={contacts.data?.total} label="Contacts" />
    </>
  );
}
