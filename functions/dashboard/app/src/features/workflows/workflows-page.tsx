import './workflows.css';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Field, Loading } from '../../components/ui';
import type { Workflow } from '../../lib/api-types';
import { useCreateWorkflow, useSetWorkflowEnabled, useWorkflowStats, useWorkflows } from './api';
import { triggerText } from './trigger';

/** /workflows: every workflow with its trigger, an enabled switch and its figures; a new one. */
export function WorkflowsPage() {
  const pages = useCursorPages('workflows');
  const workflows = useWorkflows(pages.cursor);
  return (
    <>
      <PageHeader title="Workflows" />
      <NewWorkflow />
      <ErrorNote error={workflows.error} />
      {workflows.isPending ? (
        <Loading what="workflows" />
      ) : (
        <DataTable
          caption="Workflows"
          columns={[
            { header: 'Name', className: 'wf-name', cell: (workflow) => <Link to={`/workflows/${workflow.id}`}>{workflow.name}</Link> },
            { header: 'Trigger', className: 'wf-name', cell: (workflow) => triggerText(workflow.trigger) },
            { header: 'Enabled', cell: (workflow) => <EnabledSwitch workflow={workflow} /> },
            { header: 'Entered · active · completed', cell: (workflow) => <Figures id={workflow.id} /> },
          ]}
          rows={workflows.data?.items}
          rowKey={(workflow) => workflow.id}
          empty="No workflows yet."
        />
      )}
      <Pager pages={pages} nextCursor={workflows.data?.nextCursor} label="Workflows" />
    </>
  );
}

export function EnabledSwitch({ workflow }: { workflow: Pick<Workflow, 'id' | 'name' | 'enabled'> }) {
  const setEnabled = useSetWorkflowEnabled(workflow.id);
  return (
    <>
      <button
        type="button"
        role="switch"
        aria-checked={workflow.enabled}
        aria-label={`Enabled: ${workflow.name}`}
        className="switch"
        disabled={setEnabled.isPending}
        onClick={() => setEnabled.mutate(!workflow.enabled)}
      >
        <span aria-hidden="true">{workflow.enabled ? 'On' : 'Off'}</span>
      </button>
      <ErrorNote error={setEnabled.error} />
    </>
  );
}

function Figures({ id }: { id: string }) {
  const stats = useWorkflowStats(id, false);
  return stats.data ? (
    <span>
      {stats.data.entered} · {stats.data.active} · {stats.data.completed}
    </span>
  ) : (
    <span className="muted">—</span>
  );
}

/** A new workflow: its name and trigger, with one EXIT step to start from; the canvas adds the rest. Made disabled until it is drawn. */
function NewWorkflow() {
  const navigate = useNavigate();
  const [kind, setKind] = useState<'EVENT' | 'CONTACT_CREATED'>('EVENT');
  const create = useCreateWorkflow(({ id, webhookSecret }) => navigate(`/workflows/${id}`, { state: { webhookSecret } }));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      name: String(form.get('name')).trim(),
      enabled: false,
      trigger: kind === 'EVENT' ? { type: 'EVENT', event: String(form.get('event')).trim() } : { type: 'CONTACT_CREATED' },
      steps: [{ id: 'exit-1', type: 'EXIT' }],
    });
  };
  return (
    <form className="panel inline-form" onSubmit={submit} aria-labelledby="new-workflow-title">
      <h2 id="new-workflow-title">New workflow</h2>
      <Field label="Name" name="name" required maxLength={200} placeholder="Onboarding" />
      <div className="field">
        <label htmlFor="new-workflow-trigger">Trigger</label>
        <select id="new-workflow-trigger" value={kind} onChange={(event) => setKind(event.target.value as 'EVENT' | 'CONTACT_CREATED')}>
          <option value="EVENT">A tracked event</option>
          <option value="CONTACT_CREATED">A contact is created</option>
        </select>
      </div>
      {kind === 'EVENT' && <Field label="Event" name="event" required maxLength={100} placeholder="signed_up" />}
      <button type="submit" className="primary" disabled={create.isPending}>
        New workflow
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}
