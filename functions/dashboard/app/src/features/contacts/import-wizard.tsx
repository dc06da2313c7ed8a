import { useState, type ChangeEvent } from 'react';
import { DataTable } from '../../components/data-table';
import { ErrorNote, StatusBadge } from '../../components/ui';
import { useImportJob, useStartImport } from './api';
import { describeTarget, mapColumns, parseCsvRows } from './csv';

/** The API's limit on a CSV sent in the request (larger files go through an upload URL). */
const MAX_INLINE_BYTES = 5_000_000;
const PREVIEW_ROWS = 5;

export default function ImportWizard() {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [updateExisting, setUpdateExisting] = useState(true);
  const [subscribed, setSubscribed] = useState(true);
  const [jobId, setJobId] = useState<string | null>(null);

  const rows = file ? parseCsvRows(file.text, PREVIEW_ROWS + 1) : [];
  const header = rows[0] ?? [];
  const mapping = mapColumns(header);

  const start = useStartImport((job) => setJobId(job.id));
  const job = useImportJob(jobId);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setJobId(null);
    start.reset();
    setFile(chosen ? { name: chosen.name, text: await chosen.text() } : null);
  };

  const tooLarge = file !== null && new Blob([file.text]).size > MAX_INLINE_BYTES;
  const current = job.data;

  return (
    <div className="stack">
      <div className="field">
        <label htmlFor="csv-file">CSV file</label>
        <input id="csv-file" type="file" accept=".csv,text/csv" onChange={(event) => void choose(event)} aria-describedby="csv-hint" />
        <small id="csv-hint" className="hint">
          A header row with an email column; a subscribed column (true/false, yes/no, 1/0) is optional; every other column becomes a data key.
        </small>
      </div>

      {file && (
        <section aria-labelledby="preview-title" className="panel">
          <h2 id="preview-title">Preview of {file.name}</h2>
          {mapping.problem && (
            <p className="error-note" role="alert">
              {mapping.problem}
            </p>
          )}
          {tooLarge && (
            <p className="error-note" role="alert">
              This file is over 5 MB: import it through the API's upload URL (POST /contacts/imports with upload: true).
            </p>
          )}
          <DataTable
            caption="The first rows and where each column goes"
            columns={header.map((name, index) => ({
              header: (
                <>
                  {name}
                  <span className={`mapped mapped-${mapping.targets[index]?.kind}`}>→ {describeTarget(mapping.targets[index]!)}</span>
                </>
              ),
              cell: (row: string[]) => row[index] ?? '',
            }))}
            rows={rows.slice(1)}
            rowKey={(_, rowIndex) => rowIndex}
          />
          <fieldset>
            <legend>Options</legend>
            <label className="checkbox">
              <input type="checkbox" checked={updateExisting} onChange={(event) => setUpdateExisting(event.target.checked)} /> Update contacts that exist
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={subscribed} onChange={(event) => setSubscribed(event.target.checked)} /> New contacts are subscribed (when the file does not say)
            </label>
          </fieldset>
          <button type="button" className="primary" disabled={Boolean(mapping.problem) || tooLarge || start.isPending || jobId !== null} onClick={() => start.mutate({ csv: file.text, updateExisting, subscribed })}>
            Start the import
          </button>
          <ErrorNote error={start.error} />
        </section>
      )}

      {current && (
        <section aria-labelledby="progress-title" className="panel">
          <h2 id="progress-title">
            Import <StatusBadge status={current.status} />
          </h2>
          <label htmlFor="import-progress">
            {current.processed} of {current.rows ?? '…'} rows processed
          </label>
          <progress id="import-progress" max={current.rows ?? Math.max(current.processed, 1)} value={current.processed} />
          <p>
            {current.created} created · {current.updated} updated · {current.skipped} skipped · {current.duplicates} duplicates · {current.failed} failed
          </p>
          {current.failure && (
            <p className="error-note" role="alert">
              {current.failure.message}
            </p>
          )}
          {current.errors.length > 0 && (
            <DataTable
              caption="Failed rows"
              showCaption
              columns={[
                { header: 'Row', cell: (error) => error.row },
                { header: 'Email', cell: (error) => error.email ?? '' },
                { header: 'Reason', cell: (error) => error.message },
              ]}
              rows={current.errors}
              rowKey={(error) => `${error.row}-${error.code}`}
            />
          )}
        </section>
      )}
    </div>
  );
}
