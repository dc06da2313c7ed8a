import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, SelectField, StatusBadge } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useExport, useExportProgress, useExports, useStartExport } from './api';

const WHICH = [
  ['', 'Every contact'],
  ['true', 'Subscribed only'],
  ['false', 'Unsubscribed only'],
] as const;

export function ExportPage() {
  const [which, setWhich] = useState<'' | 'true' | 'false'>('');
  const [startedId, setStartedId] = useState<string | null>(null);
  const pages = useCursorPages('exports');
  const exports = useExports(pages.cursor);
  const start = useStartExport((job) => setStartedId(job.id));

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
          start.mutate(which);
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
        <DataTable
          caption="Exports"
          showCaption
          columns={[
            { header: 'Started', cell: (job) => formatDateTime(job.createdAt) },
            { header: 'Status', cell: (job) => <StatusBadge status={job.status} /> },
            { header: 'Contacts', cell: (job) => job.rows },
            { header: 'File', cell: (job) => (job.status === 'COMPLETED' ? <DownloadLink id={job.id} /> : (job.failure?.message ?? '—')) },
          ]}
          rows={exports.data?.items}
          rowKey={(job) => job.id}
          empty="No exports yet."
        />
      )}
      <Pager pages={pages} nextCursor={exports.data?.nextCursor} total={exports.data?.total} label="Exports" />
    </>
  );
}

/** The export just started: polled until its file is ready, then its download. */
function ExportProgress({ id }: { id: string }) {
  const job = useExportProgress(id);
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
  const job = useExport(id, wanted);
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
