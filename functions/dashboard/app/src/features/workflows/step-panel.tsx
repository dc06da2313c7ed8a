import { useEffect, useRef, useState } from 'react';
import { ConfirmButton } from '../../components/confirm';
import type { WorkflowStep } from '../../lib/api-types';
import { useTemplateChoices } from './api';
import { addStep, deletePreview, deleteStep, exitsOf, STEP_TYPES, TRIGGER_ID, typeLabel, type Branch, type StepType } from './step-model';

interface PanelProps {
  steps: WorkflowStep[];
  nodeId: string;
  triggerText: string;
  /** The API's field errors of the last save, for this step (`steps[i].…`). */
  errors: { field: string; message: string }[];
  onChange: (steps: WorkflowStep[], select?: string) => void;
  onClose: () => void;
}

/** The selected node: its fields (checked by the API on save), where a step can be added after it, and delete. */
export function StepPanel({ steps, nodeId, triggerText, errors, onChange, onClose }: PanelProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [nodeId]);
  const index = steps.findIndex((step) => step.id === nodeId);
  const step = steps[index];
  const replace = (changed: WorkflowStep) => onChange(steps.map((candidate, at) => (at === index ? changed : candidate)));
  const mine = errors.filter((error) => error.field === `steps[${index}]` || error.field.startsWith(`steps[${index}].`));

  return (
    <aside className="panel wf-panel" aria-labelledby="wf-panel-title">
      <h2 id="wf-panel-title" tabIndex={-1} ref={heading}>
        {nodeId === TRIGGER_ID ? 'Trigger' : `${typeLabel(step!.type)} · ${nodeId}`}
      </h2>
      {nodeId === TRIGGER_ID ? <p className="wf-text">Starts on: {triggerText}</p> : <StepFields step={step!} onChange={replace} />}
      {mine.length > 0 && (
        <ul className="error-note" role="alert">
          {mine.map((error) => (
            <li key={error.field + error.message}>
              {error.field}: {error.message}
            </li>
          ))}
        </ul>
      )}
      {exitsOf(steps, nodeId).map((branch) => (
        <AddStep key={branch.field} branch={branch} onAdd={(type) => {
          const added = addStep(steps, nodeId, branch.field, type);
          onChange(added.steps, added.id);
        }} />
      ))}
      <div className="wf-panel-actions">
        {step && steps.length > 1 && (
          <ConfirmButton
            className="danger"
            question={{ title: `Delete step ${step.id}?`, message: deletePreview(steps, step.id), confirmLabel: 'Delete step' }}
            onConfirm={() => onChange(deleteStep(steps, step.id).steps)}
          >
            Delete step
          </ConfirmButton>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </aside>
  );
}

function AddStep({ branch, onAdd }: { branch: Branch; onAdd: (type: StepType) => void }) {
  const [type, setType] = useState<StepType>('SEND_EMAIL');
  const where = branch.label ? `on “${branch.label}”` : 'after this';
  const id = `wf-add-${branch.field}`;
  return (
    <div className="inline-form wf-add">
      <div className="field">
        <label htmlFor={id}>Add a step {where}</label>
        <select id={id} value={type} onChange={(event) => setType(event.target.value as StepType)}>
          {STEP_TYPES.map((candidate) => (
            <option key={candidate} value={candidate}>
              {typeLabel(candidate)}
            </option>
          ))}
        </select>
      </div>
      <button type="button" onClick={() => onAdd(type)}>
        Add {where}
      </button>
    </div>
  );
}

/** A JSON field (a condition's filters, a contact update's data, webhook headers): kept as text until it parses. */
function JsonField({ label, value, onChange }: { label: string; value: unknown; onChange: (value: unknown) => void }) {
  const [text, setText] = useState(() => (value === undefined ? '' : JSON.stringify(value, null, 2)));
  const [bad, setBad] = useState(false);
  const id = `wf-json-${label.replace(/\W/g, '')}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label} (JSON)</label>
      <textarea
        id={id}
        rows={6}
        value={text}
        aria-invalid={bad}
        onChange={(event) => {
          setText(event.target.value);
          if (event.target.value.trim() === '') {
            setBad(false);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(event.target.value));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad && <small className="hint">Not valid JSON yet: the last valid value is kept.</small>}
    </div>
  );
}

/** A send step's template, chosen by name; an id not among the first 100 stays as it is. */
function TemplateChoice({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const templates = useTemplateChoices();
  const items = templates.data?.items ?? [];
  const known = items.some((template) => template.id === value);
  return (
    <div className="field">
      <label htmlFor="wf-template">Template</label>
      <select id="wf-template" value={value} onChange={(event) => onChange(event.target.value)}>
        {!known && <option value={value}>{value ? `template ${value}` : 'choose a template'}</option>}
        {items.map((template) => (
          <option key={template.id} value={template.id}>
            {template.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function TextInput({ label, value, onChange, type = 'text' }: { label: string; value: string | number; onChange: (value: string) => void; type?: string }) {
  const id = `wf-field-${label.replace(/\W/g, '')}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

/** Sets a field, or removes it when empty, so the document keeps only what the user gave. */
function withField(step: WorkflowStep, field: string, value: unknown): WorkflowStep {
  const changed: Record<string, unknown> = { ...step };
  if (value === undefined) delete changed[field];
  else changed[field] = value;
  return changed as WorkflowStep;
}

function StepFields({ step, onChange }: { step: WorkflowStep; onChange: (step: WorkflowStep) => void }) {
  const set = (field: string, value: unknown) => onChange(withField(step, field, value));
  const asNumber = (text: string) => (text.trim() === '' ? 0 : Number(text));
  switch (step.type) {
    case 'SEND_EMAIL':
      return <TemplateChoice value={step.templateId} onChange={(value) => set('templateId', value)} />;
    case 'DELAY':
      return (
        <div className="inline-form">
          <TextInput label="Amount" type="number" value={step.amount} onChange={(value) => set('amount', asNumber(value))} />
          <div className="field">
            <label htmlFor="wf-delay-unit">Unit</label>
            <select id="wf-delay-unit" value={step.unit} onChange={(event) => set('unit', event.target.value)}>
              {['seconds', 'minutes', 'hours', 'days'].map((unit) => (
                <option key={unit}>{unit}</option>
              ))}
            </select>
          </div>
        </div>
      );
    case 'WAIT_FOR_EVENT':
      return (
        <>
          <TextInput label="Event" value={step.event} onChange={(value) => set('event', value)} />
          <TextInput label="Timeout (seconds)" type="number" value={step.timeoutSeconds} onChange={(value) => set('timeoutSeconds', asNumber(value))} />
        </>
      );
    case 'CONDITION':
      return <JsonField key={step.id} label="Filters" value={step.filters} onChange={(value) => set('filters', value)} />;
    case 'UPDATE_CONTACT':
      return (
        <>
          <div className="field">
            <label htmlFor="wf-subscribed">Subscribed</label>
            <select id="wf-subscribed" value={step.subscribed === undefined ? '' : String(step.subscribed)} onChange={(event) => set('subscribed', event.target.value === '' ? undefined : event.target.value === 'true')}>
              <option value="">unchanged</option>
              <option value="true">subscribe</option>
              <option value="false">unsubscribe</option>
            </select>
          </div>
          <JsonField key={step.id} label="Data" value={step.data} onChange={(value) => set('data', value)} />
        </>
      );
    case 'WEBHOOK':
      return (
        <>
          <TextInput label="URL" type="url" value={step.url} onChange={(value) => set('url', value)} />
          <JsonField key={step.id} label="Headers" value={step.headers} onChange={(value) => set('headers', value)} />
        </>
      );
    default:
      return <p className="muted">The execution ends here.</p>;
  }
}
