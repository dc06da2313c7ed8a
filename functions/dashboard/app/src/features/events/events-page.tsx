import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, Loading, PageHeader } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import { dayToIso, formatDateTime, formatValue } from '../../lib/format';

const CONTACT_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function EventsPage() {
  const [params] = useSearchParams();
  const [filter, setFilter] = useState({ name: '', contact: params.get('contactId') ?? '', from: '', to: '' });
  const pages = useCursorPages(JSON.stringify(filter));
  const contact = filter.contact.trim();
  const query = {
    limit: '25',
    ...(filter.name ? { name: filter.name } : {}),
    // The contact field takes an id or an email address, as GET /events does.
    ...(contact ? (CONTACT_ID.test(contact) ? { contactId: contact } : { email: contact }) : {}),
    ...(filter.from ? { from: dayToIso(filter.from) } : {}),
    ...(filter.to ? { to: dayToIso(filter.to, true) } : {}),
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
  };
  const events = useQuery({ queryKey: ['events', query], queryFn: () => unwrap(api.GET('/events', { params: { query } })), placeholderData: (previous) => previous });
  const names = useQuery({ queryKey: ['events', 'names'], queryFn: () => unwrap(api.GET('/events/names', {})) });
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
          <div className="table-wrap" tabIndex={0}>
            <table>
              <caption className="visually-hidden">Events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Contact</th>
                  <th scope="col">Data</th>
                  <th scope="col">Time</th>
                </tr>
              </thead>
              <tbody>
                {events.data.items.map((event) => (
                  <tr key={event.id}>
                    <td>{event.name}</td>
                    <td>
                      <Link to={`/contacts/${event.contactId}`}>{event.contactId}</Link>
                    </td>
                    <td>
                      <code className="data">{formatValue(event.data)}</code>
                    </td>
                    <td>{formatDateTime(event.createdAt)}</td>
                  </tr>
                ))}
                {events.data.items.length === 0 && (
                  <tr>
                    <td colSpan={4}>No events match.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )
      )}
      <Pager pages={pages} nextCursor={events.data?.nextCursor} total={events.data?.total} label="Events" />
    </>
  );
}
