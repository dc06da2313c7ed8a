import { lazy, Suspense, useSyncExternalStore } from 'react';
import { Loading } from '../../components/ui';
import type { WorkflowStats } from '../../lib/api-types';
import type { CanvasProps } from './workflow-canvas';
import { exitsOf, summary, TRIGGER_ID, typeLabel } from './step-model';

/** @xyflow/react and dagre: their own chunk, loaded by this page only. */
const WorkflowCanvas = lazy(() => import('./workflow-canvas'));

const NARROW = '(max-width: 700px)';
const narrowQuery = () => window.matchMedia(NARROW);
/** Below 700 px the steps are a list instead of the canvas. */
export const useNarrow = () => useSyncExternalStore((notify) => {
  const query = narrowQuery();
  query.addEventListener('change', notify);
  return () => query.removeEventListener('change', notify);
}, () => narrowQuery().matches);

/** The canvas, or at narrow widths the steps as a list in the order a contact meets them. */
export function StepsView(props: CanvasProps) {
  const narrow = useNarrow();
  if (narrow) return <StepList {...props} />;
  return (
    <Suspense fallback={<Loading what="the canvas" />}>
      <WorkflowCanvas {...props} />
    </Suspense>
  );
}

function StepList({ steps, triggerText: trigger, stats, path, onSelect, templateNames }: CanvasProps) {
  const figures = (stepId: string, all: WorkflowStats | undefined) => {
    const step = all?.steps.find((candidate) => candidate.stepId === stepId);
    return step ? `entered ${step.entered} · active ${step.active} · completed ${step.completed}` : '';
  };
  const onPath = new Set(path?.stepIds ?? []);
  return (
    <ol className="wf-list" aria-label="Steps">
      <li>
        <button type="button" className="wf-list-item" onClick={() => onSelect(TRIGGER_ID)}>
          <strong>Trigger</strong> <span className="wf-text">{trigger}</span>
        </button>
      </li>
      {steps.map((step) => (
        <li key={step.id} className={onPath.has(step.id) ? 'on-path' : undefined}>
          <button type="button" className="wf-list-item" onClick={() => onSelect(step.id)}>
            <strong>{typeLabel(step.type)}</strong> <span className="muted">{step.id}</span> <span className="wf-text">{summary(step, templateNames)}</span>
          </button>
          <div className="muted">{figures(step.id, stats)}</div>
          <div className="muted wf-text">
            {exitsOf(steps, step.id)
              .filter((branch) => branch.target)
              .map((branch) => `${branch.label ?? 'next'} → ${branch.target}`)
              .join(' · ')}
          </div>
        </li>
      ))}
    </ol>
  );
}
