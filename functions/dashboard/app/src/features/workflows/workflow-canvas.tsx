import '@xyflow/react/dist/style.css';
import './canvas.css';
import { Graph, layout } from '@dagrejs/dagre';
import { Handle, MarkerType, Position, ReactFlow, useReactFlow, type Edge, type Node, type NodeChange, type NodeProps } from '@xyflow/react';
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { WorkflowStats, WorkflowStep } from '../../lib/api-types';
import { exitsOf, summary, TRIGGER_ID, typeLabel } from './step-model';

export interface CanvasProps {
  steps: WorkflowStep[];
  triggerText: string;
  stats: WorkflowStats | undefined;
  selectedId: string | null;
  /** An execution's path: its steps are highlighted, the one it is at marked. */
  path: { stepIds: string[]; current: string | null } | null;
  onSelect: (nodeId: string) => void;
  /** Template names by id, for the send steps. */
  templateNames?: Record<string, string>;
}

type StepNodeData = { title: string; id: string; text: string; figures: [string, number][]; onPath: boolean; current: boolean };
type StepNode = Node<StepNodeData, 'step'>;

const WIDTH = 230;
const HEIGHT = 84;
/** A CONDITION or WAIT_FOR_EVENT node has a line of branch figures more. */
const heightOf = (step: WorkflowStep | undefined) => (step && (step.type === 'CONDITION' || step.type === 'WAIT_FOR_EVENT') ? HEIGHT + 24 : HEIGHT);

/** A node: the step's type, id and settings as text, and its figures from /stats. */
function StepNodeView({ data }: NodeProps<StepNode>) {
  return (
    <div className={`wf-node${data.onPath ? ' on-path' : ''}${data.current ? ' current' : ''}`}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="wf-node-title">
        <strong>{data.title}</strong> <span className="muted">{data.id}</span>
      </div>
      {data.text && <div className="wf-node-text">{data.text}</div>}
      {data.figures.length > 0 && (
        <dl className="wf-figures">
          {data.figures.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd data-figure={label}>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const nodeTypes = { step: StepNodeView };

function figuresOf(stats: WorkflowStats | undefined, stepId: string): [string, number][] {
  if (!stats) return [];
  if (stepId === TRIGGER_ID) return [['entered', stats.entered], ['active', stats.active], ['completed', stats.completed]];
  const step = stats.steps.find((candidate) => candidate.stepId === stepId);
  if (!step) return [['entered', 0], ['active', 0], ['completed', 0]];
  const figures: [string, number][] = [['entered', step.entered], ['active', step.active], ['completed', step.completed]];
  if (step.failed) figures.push(['failed', step.failed]);
  for (const [branch, count] of Object.entries(step.branches ?? {})) if (count !== undefined) figures.push([branch, count]);
  return figures;
}

/** A step added or deleted: the view fits the whole graph again (once the new nodes are measured). */
function FitOnChange({ count }: { count: number }) {
  const flow = useReactFlow();
  useEffect(() => {
    const timer = setTimeout(() => void flow.fitView(), 50);
    return () => clearTimeout(timer);
  }, [count, flow]);
  return null;
}

/** The trigger and every step, laid out top-down by dagre; positions the user drags are kept while the page is open. */
export default function WorkflowCanvas({ steps, triggerText, stats, selectedId, path, onSelect, templateNames }: CanvasProps) {
  const [dragged, setDragged] = useState<Record<string, { x: number; y: number }>>({});

  const edges = useMemo<Edge[]>(() => {
    const onPath = new Set(path?.stepIds ?? []);
    return [TRIGGER_ID, ...steps.map((step) => step.id)].flatMap((source) =>
      exitsOf(steps, source)
        .filter((branch) => branch.target !== undefined)
        .map((branch) => ({
          id: `${source}:${branch.field}`,
          source,
          target: branch.target!,
          ...(branch.label ? { label: branch.label } : {}),
          className: (source === TRIGGER_ID || onPath.has(source)) && onPath.has(branch.target!) && path ? 'on-path' : '',
          focusable: false,
          markerEnd: { type: MarkerType.ArrowClosed },
        })),
    );
  }, [steps, path]);

  const positions = useMemo(() => {
    const graph = new Graph();
    graph.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 60 });
    graph.setDefaultEdgeLabel(() => ({}));
    graph.setNode(TRIGGER_ID, { width: WIDTH, height: HEIGHT });
    for (const step of steps) graph.setNode(step.id, { width: WIDTH, height: heightOf(step) });
    for (const edge of edges) graph.setEdge(edge.source, edge.target);
    layout(graph);
    return Object.fromEntries(graph.nodes().map((id) => [id, { x: graph.node(id).x - WIDTH / 2, y: graph.node(id).y - graph.node(id).height / 2 }]));
  }, [steps, edges]);

  const nodes = useMemo<StepNode[]>(() => {
    const onPath = new Set(path?.stepIds ?? []);
    const trigger: StepNode = {
      id: TRIGGER_ID,
      type: 'step',
      position: dragged[TRIGGER_ID] ?? positions[TRIGGER_ID]!,
      selected: selectedId === TRIGGER_ID,
      ariaLabel: `Trigger: ${triggerText}`,
      data: { title: 'Trigger', id: '', text: triggerText, figures: figuresOf(stats, TRIGGER_ID), onPath: path !== null, current: false },
    };
    return [
      trigger,
      ...steps.map((step) => ({
        id: step.id,
        type: 'step' as const,
        position: dragged[step.id] ?? positions[step.id] ?? { x: 0, y: 0 },
        selected: selectedId === step.id,
        ariaLabel: `${typeLabel(step.type)} step ${step.id}`,
        data: { title: typeLabel(step.type), id: step.id, text: summary(step, templateNames), figures: figuresOf(stats, step.id), onPath: onPath.has(step.id), current: path?.current === step.id },
      })),
    ];
  }, [steps, positions, dragged, selectedId, stats, path, triggerText, templateNames]);

  const onNodesChange = (changes: NodeChange<StepNode>[]) => {
    for (const change of changes) {
      if (change.type === 'position' && change.position) setDragged((was) => ({ ...was, [change.id]: change.position! }));
      if (change.type === 'select' && change.selected) onSelect(change.id);
    }
  };

  // React Flow selects a focused node on Enter only when its store holds it unselected; right
  // after another step was opened the store can still hold the old selection, and the key was
  // lost. Opening the focused node here does not depend on that.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (event.key === 'Enter' && target.classList.contains('react-flow__node') && target.dataset.id) onSelect(target.dataset.id);
  };

  return (
    <div className="wf-canvas" role="region" aria-label="Workflow canvas: Tab to a node, Enter opens it">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onKeyDown={onKeyDown}
        nodesConnectable={false}
        edgesFocusable={false}
        deleteKeyCode={null}
        fitView
        minZoom={0.3}
        proOptions={{ hideAttribution: true }}
      >
        <FitOnChange count={steps.length} />
      </ReactFlow>
    </div>
  );
}
