import type { WorkflowStep } from '../../lib/api-types';

export type StepType = WorkflowStep['type'];
export const STEP_TYPES: readonly StepType[] = ['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'UPDATE_CONTACT', 'WEBHOOK', 'EXIT'];
export const TRIGGER_ID = '__trigger';

/** A way out of a node: the field that holds it and the label its edge carries. */
export interface Branch {
  field: 'first' | 'next' | 'then' | 'else' | 'timeoutNext';
  label: string | null;
  target: string | undefined;
}

/** Every way out of a step, also the empty ones (where a step can be added). */
export function branchesOf(step: WorkflowStep): Branch[] {
  switch (step.type) {
    case 'CONDITION':
      return [
        { field: 'then', label: 'then', target: step.then },
        { field: 'else', label: 'else', target: step.else },
      ];
    case 'WAIT_FOR_EVENT':
      return [
        { field: 'next', label: 'event', target: step.next },
        { field: 'timeoutNext', label: 'timeout', target: step.timeoutNext },
      ];
    case 'EXIT':
      return [];
    default:
      return [{ field: 'next', label: null, target: step.next }];
  }
}

/** The ways out of a node: the trigger's one is the first step. */
export const exitsOf = (steps: WorkflowStep[], nodeId: string): Branch[] =>
  nodeId === TRIGGER_ID ? [{ field: 'first', label: null, target: steps[0]?.id }] : branchesOf(steps.find((step) => step.id === nodeId)!);

const labels: Record<StepType, string> = {
  SEND_EMAIL: 'Send email',
  DELAY: 'Delay',
  WAIT_FOR_EVENT: 'Wait for event',
  CONDITION: 'Condition',
  UPDATE_CONTACT: 'Update contact',
  WEBHOOK: 'Webhook',
  EXIT: 'Exit',
};
export const typeLabel = (type: string) => labels[type as StepType] ?? type;

/** One line about a step's settings, rendered as text (a send step's template by name when it is known). */
export function summary(step: WorkflowStep, templateNames: Record<string, string> = {}): string {
  switch (step.type) {
    case 'SEND_EMAIL':
      return templateNames[step.templateId] ?? `template ${step.templateId}`;
    case 'DELAY':
      return `${step.amount} ${step.unit}`;
    case 'WAIT_FOR_EVENT':
      return `${step.event}, up to ${step.timeoutSeconds} s`;
    case 'CONDITION': {
      const count = (step.filters as { conditions?: unknown[] }).conditions?.length ?? 0;
      return `${(step.filters as { operator?: string }).operator ?? 'AND'} of ${count} condition${count === 1 ? '' : 's'}`;
    }
    case 'UPDATE_CONTACT':
      return [step.subscribed !== undefined ? (step.subscribed ? 'subscribe' : 'unsubscribe') : '', step.data ? `set ${Object.keys(step.data).join(', ')}` : ''].filter(Boolean).join('; ');
    case 'WEBHOOK':
      return step.url;
    default:
      return '';
  }
}

const newStepFields: Record<StepType, object> = {
  SEND_EMAIL: { templateId: '' },
  DELAY: { amount: 1, unit: 'hours' },
  WAIT_FOR_EVENT: { event: '', timeoutSeconds: 86_400 },
  CONDITION: { filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] } },
  UPDATE_CONTACT: { subscribed: true },
  WEBHOOK: { url: 'https://' },
  EXIT: {},
};

function freshId(steps: WorkflowStep[], type: StepType) {
  const base = type.toLowerCase().replace(/_/g, '-');
  for (let n = 1; ; n += 1) if (!steps.some((step) => step.id === `${base}-${n}`)) return `${base}-${n}`;
}

/** Where a step's way out goes: its first branch for a CONDITION, `next` for the others. */
const continueField = (type: StepType): 'next' | 'then' | null => (type === 'EXIT' ? null : type === 'CONDITION' ? 'then' : 'next');

/**
 * Adds a step of `type` on the way out `field` of `nodeId`: what was there continues after the new
 * step (on its `next`, or `then` for a condition). Answers the new steps and the new step's id.
 */
export function addStep(steps: WorkflowStep[], nodeId: string, field: Branch['field'], type: StepType): { steps: WorkflowStep[]; id: string } {
  const id = freshId(steps, type);
  const previous = exitsOf(steps, nodeId).find((branch) => branch.field === field)?.target;
  const carry = continueField(type);
  const added = { id, type, ...newStepFields[type], ...(previous && carry ? { [carry]: previous } : {}) } as WorkflowStep;
  if (nodeId === TRIGGER_ID) return { steps: [added, ...steps], id };
  const updated = steps.map((step) => (step.id === nodeId ? ({ ...step, [field]: id } as WorkflowStep) : step));
  return { steps: [...updated, added], id };
}

/** The ids reachable from the first step. */
function reachable(steps: WorkflowStep[]): Set<string> {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const seen = new Set<string>();
  const visit = (id: string | undefined) => {
    if (!id || seen.has(id) || !byId.has(id)) return;
    seen.add(id);
    for (const branch of branchesOf(byId.get(id)!)) visit(branch.target);
  };
  visit(steps[0]?.id);
  return seen;
}

/**
 * Deleting a step: whatever led to it goes on to its continuation (`next`, or `then` of a
 * condition, `next` of a wait); the steps that only its other branch reached go with it.
 * Answers the new steps and the ids removed besides the step itself (what the panel warns of).
 */
export function deleteStep(steps: WorkflowStep[], stepId: string): { steps: WorkflowStep[]; alsoRemoved: string[] } {
  const doomed = steps.find((step) => step.id === stepId)!;
  const field = continueField(doomed.type);
  const continuation = field ? (doomed as Record<string, unknown>)[field] as string | undefined : undefined;
  const relinked = steps
    .filter((step) => step.id !== stepId)
    .map((step) => {
      let changed: Record<string, unknown> = step;
      for (const branch of branchesOf(step)) {
        if (branch.target !== stepId) continue;
        changed = { ...changed };
        if (continuation) changed[branch.field] = continuation;
        else delete changed[branch.field];
      }
      return changed as WorkflowStep;
    });
  // The first step deleted: its continuation becomes first.
  if (steps[0]?.id === stepId && continuation) {
    const index = relinked.findIndex((step) => step.id === continuation);
    relinked.unshift(...relinked.splice(index, 1));
  }
  const keep = reachable(relinked);
  return { steps: relinked.filter((step) => keep.has(step.id)), alsoRemoved: relinked.filter((step) => !keep.has(step.id)).map((step) => step.id) };
}

/** What deleting would do, said before it is done. */
export function deletePreview(steps: WorkflowStep[], stepId: string): string {
  const { alsoRemoved } = deleteStep(steps, stepId);
  const doomed = steps.find((step) => step.id === stepId)!;
  const field = continueField(doomed.type);
  const continuation = field ? ((doomed as Record<string, unknown>)[field] as string | undefined) : undefined;
  const joined = continuation ? `What led to ${stepId} will go on to ${continuation}.` : `What led to ${stepId} will end there.`;
  return alsoRemoved.length ? `${joined} These steps, reached only through it, are removed too: ${alsoRemoved.join(', ')}.` : joined;
}
