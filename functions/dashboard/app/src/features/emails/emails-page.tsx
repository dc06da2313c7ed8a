import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, Loading, PageHeader, SelectField, StatusBadge } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import type { paths } from '../../lib/schema';
import { dayToIso, formatDateTime } from '../../lib/format';

const STATUSES = [['', 'Any status'], ...['QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'BOUNCED', 'COMPLAINED', 'FAILED', 'SUPPRESSED'].map((status) => [status, status.toLowerCase()] as const)] as const;
const SOURCES = [
  ['', 'Any kind'],
  ['transactional', 'Transactional'],
  ['campaign', 'Campaign'],
  ['workflow', 'Workflow'],
  ['test', 'Test'],
] as const;

/** GET /emails's query as the document types it: status and source are the listed values, and only those are offered. */
type EmailsQuery = NonNullable<paths['/emails']['get']['parameters']['query']>;

export function EmailsPage() {
  const [filter, setFilter] = useState({ email: '', status: '', source: '', from: '', to: '' });
  const pages = useCursorPages(JSON.stringify(filter));
  const query = {
    limit: '25',
    ...(filter.email ? { email: filter.email } : {}),
    ...(filter.status ? { status: filter.status as NonNullable<EmailsQuery['status']> } : {}),
    ...(filter.source ? { source: filter.source as NonNullable<EmailsQuery['source']> } : {}),
    ...(filter.from ? { from: dayToIso(filter.from) } : {}),
    ...(filter.to ? { to: dayToIso(filter.to, true) } : {}),
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
  };
  const emails = useQuery({ queryKey: ['emails', query], queryFn: () => unwrap(api.GET('/emails', { params: { query } })), placeholderData: (previous) => previous });
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
          <div className="table-wrap" tabIndex={0}>
            <table>
              <caption className="visually-hidden">Emails, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Recipient</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Status</th>
                  <th scope="col">Time</th>
                </tr>
              </thead>
              <tbody>
                {emails.data.items.map((email) => (
                  <tr key={email.id}>
                    <td>{email.to}</td>
                    <td>
                      <Link to={`/emails/${email.id}`}>{email.subject || '(no subject)'}</Link>
                    </td>
                    <td>{email.source}</td>
                    <td>
                      <StatusBadge status={email.status} />
                    </td>
                    <td>{formatDateTime(email.createdAt)}</td>
                  </tr>
                ))}
                {emails.data.items.length === 0 && (
                  <tr>
                    <td colSpan={5}>No emails match.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )
      )}
      <Pager pages={pages} nextCursor={emails.data?.nextCursor} total={emails.data?.total} label="Emails" />
    </>
  );
}
