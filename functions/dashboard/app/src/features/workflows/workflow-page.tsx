import './workflows.css';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useLeaveGuard } from '../../components/unsaved-changes';
import { CopyButton, ErrorNote, Loading } from '../../components/ui';
import type { ApiError } from '../../lib/api-client';
import type { WorkflowStep } from '../../lib/api-types';
import { useSaveSteps, useTemplateNames, useWorkflow, useWorkflowStats } from './api';
import { ExecutionsTab } from './executions';
import { StepPanel } from './step-panel';
import { TRIGGER_ID } from './step-model';
import { StepsView } from './steps-view';
import { triggerText } from './trigger';
import { EnabledSwitch } from './workflows-page';

/** /workflows/:id: the editor (canvas, side panel, save) and the Executions tab. */
export function WorkflowPage() {
  const { id = '' } = useParams();
  const workflow = useWorkflow(id);
  const stats = useWorkflowStats(id);
  const save = useSaveSteps(id);
  const templateNames = useTemplateNames();
  const [tab, setTab] = useState<'editor' | 'executions'>('editor');
  // Just created: the WEBHOOK steps' signing secret, which the API shows only then.
  const location = useLocation();
  const navigate = useNavigate();
  const createdSecret = (location.state as { webhookSecret?: string } | null)?.webhookSecret;
  const [draft, setDraft] = useState<WorkflowStep[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const saved = workflow.data?.steps;
  const steps = draft ?? saved ?? [];
  const dirty = draft !== null && JSON.stringify(draft) !== JSON.stringify(saved);
  useLeaveGuard(dirty);
  // A saved version replaces the draft.
  useEffect(() => setDraft(null), [workflow.data?.version]);

  if (workflow.isPending) return <Loading what="the workflow" />;
  if (!workflow.data) return <ErrorNote error={workflow.error} />;
  const trigger = triggerText(workflow.data.trigger);
  const errors = (save.error as ApiError | null)?.errors ?? [];

  return (
    <>
      <PageHeader title={workflow.data.name}>
        <span className="wf-enabled">
          Enabled <EnabledSwitch workflow={workflow.data} />
        </span>
      </PageHeader>
      <p className="muted wf-text">
        Trigger: {trigger} · version {workflow.data.version}
      </p>
      {createdSecret && (
        <div className="panel" role="status">
          <p>
            Its WEBHOOK steps are signed (Standard Webhooks) with this secret, shown only now: <code className="wf-text">{createdSecret}</code> <CopyButton text={createdSecret} label="signing secret" />
          </p>
          <button type="button" onClick={() => void navigate(location.pathname, { replace: true, state: null })}>
            Done
          </button>
        </div>
      )}
      <div role="tablist" aria-label="Workflow" className="wf-tabs">
        <button type="button" role="tab" id="wf-tab-editor" aria-controls="wf-panel-editor" aria-selected={tab === 'editor'} onClick={() => setTab('editor')}>
          Steps
        </button>
        <button type="button" role="tab" id="wf-tab-executions" aria-controls="wf-panel-executions" aria-selected={tab === 'executions'} onClick={() => setTab('executions')}>
          Executions
        </button>
      </div>
      {tab === 'editor' ? (
        <section role="tabpanel" id="wf-panel-editor" aria-labelledby="wf-tab-editor">
          <div className="wf-toolbar">
            <button type="button" className="primary" disabled={!dirty || save.isPending} onClick={() => save.mutate(steps)}>
              Save
            </button>
            <button type="button" disabled={!dirty} onClick={() => { setDraft(null); save.reset(); }}>
              Discard changes
            </button>
            <span className="muted" role="status">
              {dirty ? 'Unsaved changes' : save.isSuccess ? 'Saved' : ''}
            </span>
          </div>
          <ErrorNote error={save.error} />
          <div className={`wf-editor${selected ? ' with-panel' : ''}`}>
            <StepsView steps={steps} triggerText={trigger} stats={stats.data} selectedId={selected} path={null} onSelect={setSelected} templateNames={templateNames} />
            {selected && (selected === TRIGGER_ID || steps.some((step) => step.id === selected)) && (
              <StepPanel
                steps={steps}
                nodeId={selected}
                triggerText={trigger}
                errors={errors}
                onChange={(changed, select) => {
                  setDraft(changed);
                  setSelected(select ?? (changed.some((step) => step.id === selected) ? selected : null));
                }}
                onClose={() => setSelected(null)}
              />
            )}
          </div>
        </section>
      ) : (
        <section role="tabpanel" id="wf-panel-executions" aria-labelledby="wf-tab-executions">
          <ExecutionsTab workflowId={id} steps={saved ?? []} triggerText={trigger} stats={stats.data} templateNames={templateNames} />
        </section>
      )}
    </>
  );
}
