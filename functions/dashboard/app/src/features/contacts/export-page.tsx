import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, PageHeader, SelectField, StatusBadge } from '../../components/ui';
import { api, unwrap } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';

const WHICH = [
  ['', 'Every contact'],
  ['true', 'Subscribed only'],
  ['false', 'Unsubscribed only'],
] as const;

export function ExportPage() {
  const queryClient = useQueryClient();
  const [which, setWhich] = useState<'' | 'true' | 'false'>('');
  const [startedId, setStartedId] = useState<string | null>(null);
  const pages = useCursorPages('exports');
  const exports = useQuery({
    queryKey: ['exports', pages.cursor],
    queryFn: () => unwrap(api.GET('/contacts/exports', { params: { query: { limit: '10', ...(pages.cursor ? { cursor: pages.cursor } : {}) } } })),
    // Poll while an export is being written, so its download appears when ready.
    refetchInterval: (query) => (query.state.data?.items.some((job) => job.status === 'QUEUED' || job.status === 'PROCESSING') ? 1500 : false),
  });
  const start = useMutation({
    mutationFn: () => unwrap(api.POST('/contacts/exports', { body: which ? { subscribed: which === 'true' } : {} })),
    onSuccess: (job) => {
      setStartedId(job.id);
      void queryClient.invalidateQueries({ queryKey: ['exports'] });
    },
  });

  return (
    <>
      <PageHeader title="Export contacts">
        <Link className="button" to="/contacts">
          Back to contacts
        </Link>
      </PageHeader>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          start.mutate();
        }}
      >
        <SelectField label="Contacts" value={which} onChange={(event) => setWhich(event.target.value as typeof which)} options={WHICH} />
        <button type="submit" className="primary" disabled={start.isPending}>
          Export to CSV
        </button>
      </form>
      <ErrorNote error={start.error ?? exports.error} />
      {startedId && <ExportProgress id={startedId} />}
      {exports.isPending ? (
        <Loading what="exports" />
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption>Exports</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Contacts</th>
                <th scope="col">File</th>
              </tr>
            </thead>
            <tbody>
              {exports.data?.items.map((job) => (
                <tr key={job.id}>
                  <td>{formatDateTime(job.createdAt)}</td>
                  <td>
                    <StatusBadge status={job.status} />
                  </td>
                  <td>{job.rows}</td>
                  <td>
                    {job.status === 'COMPLETED' ? <DownloadLink id={job.id} /> : (job.failure?.message ?? '—')}
                  </td>
                </tr>
              ))}
              {exports.data?.items.length === 0 && (
                <tr>
                  <td colSpan={4}>No exports yet.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager pages={pages} nextCursor={exports.data?.nextCursor} total={exports.data?.total} label="Exports" />
    </>
  );
}

/** The export just started: polled until its file is ready, then its download. */
function ExportProgress({ id }: { id: string }) {
  const job = useQuery({
    queryKey: ['exports', 'one', id],
    queryFn: () => unwrap(api.GET('/contacts/exports/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && ['COMPLETED', 'FAILED'].includes(query.state.data.status) ? false : 1000),
  });
  if (!job.data) return <ErrorNote error={job.error} />;
  return (
    <p role="status" className="panel">
      Your export: <StatusBadge status={job.data.status} /> {job.data.rows} contacts.{' '}
      {job.data.downloadUrl && (
        <a href={job.data.downloadUrl} download>
          Download CSV
        </a>
      )}
      {job.data.failure?.message}
    </p>
  );
}

/** Download links are signed for an hour at each read, so an older export's is read on demand. */
function DownloadLink({ id }: { id: string }) {
  const [wanted, setWanted] = useState(false);
  const job = useQuery({ queryKey: ['exports', 'one', id], enabled: wanted, queryFn: () => unwrap(api.GET('/contacts/exports/{id}', { params: { path: { id } } })) });
  if (job.data?.downloadUrl) {
    return (
      <a href={job.data.downloadUrl} download>
        Download CSV
      </a>
    );
  }
  return (
    <button type="button" onClick={() => setWanted(true)} disabled={wanted && job.isFetching}>
      Get the file
    </button>
  );
}
