import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, Loading, SelectField, StatusBadge } from '../../components/ui';
import { dayToIso, formatDateTime } from '../../lib/format';
import { useEmails, type EmailsQuery } from './api';

const STATUSES = [['', 'Any status'], ...['QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED'].map((status) => [status, status.toLowerCase()] as const)] as const;
const SOURCES = [
  ['', 'Any kind'],
  ['transactional', 'Transactional'],
  ['campaign', 'Campaign'],
  ['workflow', 'Workflow'],
  ['test', 'Test'],
] as const;

export function EmailsPage() {
  const [filter, setFilter] = useState({ email: '', status: '', source: '', from: '', to: '' });
  const pages = useCursorPages(JSON.stringify(filter));
  const query: EmailsQuery = {
    limit: '25',
    ...(filter.email ? { email: filter.email } : {}),
    ...(filter.status ? { status: filter.status as NonNullable<EmailsQuery['status']> } : {}),
    ...(filter.source ? { source: filter.source as NonNullable<EmailsQuery['source']> } : {}),
    ...(filter.from ? { from: dayToIso(filter.from) } : {}),
    ...(filter.to ? { to: dayToIso(filter.to, true) } : {}),
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
  };
  const emails = useEmails(query);
  const set = (name: keyof typeof filter) => (event: { target: { value: string } }) => setFilter((current) => ({ ...current, [name]: event.target.value }));

  return (
    <>
      <PageHeader title="Emails" />
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <Field label="Recipient" type="search" value={filter.email} onChange={set('email')} maxLength={254} />
        <SelectField label="Status" value={filter.status} onChange={set('status')} options={STATUSES} />
        <SelectField label="Kind" value={filter.source} onChange={set('source')} options={SOURCES} />
        <Field label="From" type="date" value={filter.from} onChange={set('from')} />
        <Field label="To" type="date" value={filter.to} onChange={set('to')} />
      </form>
      <ErrorNote error={emails.error} />
      {emails.isPending ? (
        <Loading what="emails" />
      ) : (
        emails.data && (
          <DataTable
            caption="Emails, newest first"
            columns={[
              { header: 'Recipient', cell: (email) => email.to },
              { header: 'Subject', cell: (email) => <Link to={`/emails/${email.id}`}>{email.subject || '(no subject)'}</Link> },
              { header: 'Kind', cell: (email) => email.source },
              { header: 'Status', cell: (email) => <StatusBadge status={email.status} /> },
              { header: 'Time', cell: (email) => formatDateTime(email.createdAt) },
            ]}
            rows={emails.data.items}
            rowKey={(email) => email.id}
            empty="No emails match."
          />
        )
      )}
      <Pager pages={pages} nextCursor={emails.data?.nextCursor} total={emails.data?.total} label="Emails" />
    </>
  );
}
