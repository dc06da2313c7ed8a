import { useState, type FormEvent } from 'react';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, StatusBadge } from '../../components/ui';
import type { WorkflowStats, WorkflowStep } from '../../lib/api-types';
import { formatDateTime } from '../../lib/format';
import { useCancelExecution, useExecution, useExecutions, type ExecutionFilter } from './api';
import { StepsView } from './steps-view';

const STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'];
const FINISHED = new Set(['COMPLETED', 'EXITED', 'FAILED', 'CANCELLED']);

/** The workflow's executions, filtered by status and contact; one opened shows its path on the canvas and can be cancelled. */
type Shared = { workflowId: string; steps: WorkflowStep[]; triggerText: string; stats: WorkflowStats | undefined; templateNames: Record<string, string> };

export function ExecutionsTab({ workflowId, steps, triggerText, stats, templateNames }: Shared) {
  const [filter, setFilter] = useState<ExecutionFilter>({});
  const pages = useCursorPages(JSON.stringify(filter));
  const executions = useExecutions(workflowId, filter, pages.cursor);
  const [open, setOpen] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const status = String(form.get('status') ?? '');
    const contactId = String(form.get('contactId') ?? '').trim();
    setFilter({ ...(status ? { status } : {}), ...(contactId ? { contactId } : {}) });
  };

  return (
    <>
      <form className="filters" onSubmit={submit} aria-label="Filter executions">
        <div className="field">
          <label htmlFor="wf-exec-status">Status</label>
          <select id="wf-exec-status" name="status" defaultValue="">
            <option value="">any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="wf-exec-contact">Contact id</label>
          <input id="wf-exec-contact" name="contactId" maxLength={26} />
        </div>
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={executions.error} />
      {executions.isPending ? (
        <Loading what="executions" />
      ) : (
        <DataTable
          caption="Executions"
          columns={[
            { header: 'Contact', className: 'wf-text', cell: (execution) => execution.contactId },
            { header: 'Status', cell: (execution) => <StatusBadge status={execution.status} /> },
            { header: 'At step', className: 'wf-text', cell: (execution) => execution.currentStepId },
            { header: 'Started', cell: (execution) => formatDateTime(execution.startedAt) },
            {
              header: '',
              cell: (execution) => (
                <button type="button" aria-pressed={open === execution.id} onClick={() => setOpen(execution.id)}>
                  Open<span className="visually-hidden"> execution of {execution.contactId}</span>
                </button>
              ),
            },
          ]}
          rows={executions.data?.items}
          rowKey={(execution) => execution.id}
          empty="No executions match."
        />
      )}
      <Pager pages={pages} nextCursor={executions.data?.nextCursor} label="Executions" />
      {open && <ExecutionView workflowId={workflowId} executionId={open} steps={steps} triggerText={triggerText} stats={stats} templateNames={templateNames} />}
    </>
  );
}

function ExecutionView({ workflowId, executionId, steps, triggerText, stats, templateNames }: Shared & { executionId: string }) {
  const execution = useExecution(workflowId, executionId);
  const cancel = useCancelExecution(workflowId);
  if (execution.isPending) return <Loading what="the execution" />;
  if (!execution.data) return <ErrorNote error={execution.error} />;
  const data = execution.data;
  const current = FINISHED.has(data.status) ? null : data.currentStepId;
  return (
    <section className="panel" aria-labelledby="wf-execution-title">
      <h2 id="wf-execution-title">
        Execution of contact <span className="wf-text">{data.contactId}</span>
      </h2>
      <p>
        <StatusBadge status={data.status} /> started {formatDateTime(data.startedAt)}
        {data.completedAt ? `, ended ${formatDateTime(data.completedAt)}` : ''}
        {data.exitReason ? ` (${data.exitReason})` : ''}
      </p>
      {!FINISHED.has(data.status) && (
        <ConfirmButton
          className="danger"
          question={{ title: 'Cancel this execution?', message: 'The contact leaves the workflow now; no further step runs for it.', confirmLabel: 'Cancel execution' }}
          onConfirm={() => cancel.mutate(executionId)}
          disabled={cancel.isPending}
        >
          Cancel execution
        </ConfirmButton>
      )}
      <ErrorNote error={cancel.error} />
      <DataTable
        caption="Path"
        showCaption
        columns={[
          { header: 'Step', className: 'wf-text', cell: (entry) => `${entry.stepId} (${entry.type.toLowerCase().replace(/_/g, ' ')})` },
          { header: 'Entered', cell: (entry) => formatDateTime(entry.enteredAt) },
          { header: 'Left', cell: (entry) => (entry.leftAt ? formatDateTime(entry.leftAt) : 'here now') },
          { header: 'Outcome', className: 'wf-text', cell: (entry) => [entry.outcome, entry.emailId, entry.error].filter(Boolean).join(' · ') || '—' },
        ]}
        rows={data.path}
        rowKey={(entry) => entry.stepId}
        empty="No step entered yet."
      />
      <StepsView steps={steps} triggerText={triggerText} stats={stats} selectedId={null} path={{ stepIds: data.path.map((entry) => entry.stepId), current }} onSelect={() => undefined} templateNames={templateNames} />
    </section>
  );
}
