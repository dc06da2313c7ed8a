import { DataTable } from '../../components/data-table';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote } from '../../components/ui';
import { formatDateTime, formatValue } from '../../lib/format';
import type { components } from '../../lib/schema';
import { useAuditLog, useMemberNames } from './api';

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
  const members = useMemberNames();
  const emails = new Map(members.data?.items.map((member) => [member.userId, member.email]));
  const audit = useAuditLog(pages.cursor);
  return (
    <section className="panel" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <ErrorNote error={audit.error} />
      <DataTable
        caption="Audit log, newest first"
        columns={[
          { header: 'When', cell: (entry) => formatDateTime(entry.createdAt) },
          { header: 'Who', cell: (entry) => actorLabel(entry.actor, emails) },
          {
            header: 'What',
            cell: (entry) => (
              <>
                {entry.action}
                {entry.target ? ` · ${entry.target}` : ''}
              </>
            ),
          },
          { header: 'Details', cell: (entry) => entry.detail && <code className="data">{formatValue(entry.detail)}</code> },
        ]}
        rows={audit.data?.items}
        rowKey={(entry) => entry.id}
      />
      <Pager pages={pages} nextCursor={audit.data?.nextCursor} total={audit.data?.total} label="Audit log" />
    </section>
  );
}
