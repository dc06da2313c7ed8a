import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, Loading } from '../../components/ui';
import { dayToIso, formatDateTime, formatValue } from '../../lib/format';
import { useEventNames, useEvents, type EventsQuery } from './api';

const CONTACT_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function EventsPage() {
  const [params] = useSearchParams();
  const [filter, setFilter] = useState({ name: '', contact: params.get('contactId') ?? '', from: '', to: '' });
  const pages = useCursorPages(JSON.stringify(filter));
  const contact = filter.contact.trim();
  const query: EventsQuery = {
    limit: '25',
    ...(filter.name ? { name: filter.name } : {}),
    // The contact field takes an id or an email address, as GET /events does.
    ...(contact ? (CONTACT_ID.test(contact) ? { contactId: contact } : { email: contact }) : {}),
    ...(filter.from ? { from: dayToIso(filter.from) } : {}),
    ...(filter.to ? { to: dayToIso(filter.to, true) } : {}),
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
  };
  const events = useEvents(query);
  const names = useEventNames();
  const set = (name: keyof typeof filter) => (event: { target: { value: string } }) => setFilter((current) => ({ ...current, [name]: event.target.value }));

  return (
    <>
      <PageHeader title="Events" />
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <Field label="Name" list="event-names" value={filter.name} onChange={set('name')} maxLength={100} />
        <datalist id="event-names">
          {names.data?.items.map((name) => (
            <option key={name.name} value={name.name} />
          ))}
        </datalist>
        <Field label="Contact (email or id)" value={filter.contact} onChange={set('contact')} maxLength={254} />
        <Field label="From" type="date" value={filter.from} onChange={set('from')} />
        <Field label="To" type="date" value={filter.to} onChange={set('to')} />
      </form>
      <ErrorNote error={events.error} />
      {events.isPending ? (
        <Loading what="events" />
      ) : (
        events.data && (
          <DataTable
            caption="Events, newest first"
            columns={[
              { header: 'Event', cell: (event) => event.name },
              { header: 'Contact', cell: (event) => <Link to={`/contacts/${event.contactId}`}>{event.contactId}</Link> },
              { header: 'Data', cell: (event) => <code className="data">{formatValue(event.data)}</code> },
              { header: 'Time', cell: (event) => formatDateTime(event.createdAt) },
            ]}
            rows={events.data.items}
            rowKey={(event) => event.id}
            empty="No events match."
          />
        )
      )}
      <Pager pages={pages} nextCursor={events.data?.nextCursor} total={events.data?.total} label="Events" />
    </>
  );
}
