import { useQuery } from '@tanstack/react-query';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import { formatDateTime, formatValue } from '../../lib/format';
import type { components } from '../../lib/schema';

/**
 * An action taken with an API key names the key, and one taken in a session (recorded with the
 * user id only) the member's email; only an actor that is neither a user nor a key is the system.
 */
function actorLabel(actor: components['schemas']['AuditEntry']['actor'], emails: ReadonlyMap<string, string>): string {
  if (actor.type === 'key') return `API key ${actor.keyId}`;
  if (actor.userId) return actor.email ?? emails.get(actor.userId) ?? actor.userId;
  return 'The system';
}

/** Who did what, when: sign-ins, invitations, role and key changes (owners only). */
export function AuditSection() {
  const pages = useCursorPages('audit');
  // Under the members key, so the members section's changes refresh these names too.
  const members = useQuery({ queryKey: ['members', 'audit-names'], queryFn: () => unwrap(api.GET('/members', {})) });
  const emails = new Map(members.data?.items.map((member) => [member.userId, member.email]));
  const audit = useQuery({ queryKey: ['audit', pages.cursor], queryFn: () => unwrap(api.GET('/audit', { params: { query: { limit: '25', ...(pages.cursor ? { cursor: pages.cursor } : {}) } } })) });
  return (
    <section className="panel" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <ErrorNote error={audit.error} />
      <div className="table-wrap" tabIndex={0}>
        <table>
          <caption className="visually-hidden">Audit log, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {audit.data?.items.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDateTime(entry.createdAt)}</td>
                <td>{actorLabel(entry.actor, emails)}</td>
                <td>
                  {entry.action}
                  {entry.target ? ` · ${entry.target}` : ''}
                </td>
                <td>{entry.detail && <code className="data">{formatValue(entry.detail)}</code>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager pages={pages} nextCursor={audit.data?.nextCursor} total={audit.data?.total} label="Audit log" />
    </section>
  );
}
