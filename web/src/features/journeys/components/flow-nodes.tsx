import { Handle, Position, type Edge, type Node, type NodeProps } from '@xyflow/react';
import Badge from 'react-bootstrap/Badge';
import { PORT_LABELS, ports, START, STEP_LABELS, target, type Port } from '../definition';
import { stepSummary, triggerSummary, type Names } from '../describe';
import type { JourneyDefinition, Step } from '../types';

/** What a step's box shows under its summary on the detail page. */
export interface StepCounts {
  reached: number;
  sent: number;
}

export type StepNodeData = {
  step: Step;
  summary: string;
  problem?: string;
  counts?: StepCounts;
};
export type StartNodeData = { triggers: string[] };
export type StepNode = Node<StepNodeData, 'step'>;
export type StartNode = Node<StartNodeData, 'start'>;
export type FlowNode = StepNode | StartNode;

const NODE_WIDTH = 240;

// The ports are for the mouse; the step panel's selects connect the same ports from the keyboard.
const handleLeft = (index: number, count: number) => `${((index + 1) * 100) / (count + 1)}%`;

function StepBox({ data, selected }: NodeProps<StepNode>) {
  const { step, summary, problem, counts } = data;
  const out = ports(step);
  return (
    <div
      className={`journey-node card shadow-sm ${selected ? 'border-primary' : ''} ${problem ? 'border-danger' : ''}`}
      data-testid={`step-${step.id}`}
      title={problem}
      style={{ width: NODE_WIDTH }}
    >
      <Handle type="target" position={Position.Top} />
      <div className="card-body p-2">
        <div className="d-flex justify-content-between gap-2 small">
          <strong>{STEP_LABELS[step.kind]}</strong>
          <span className="text-body-secondary font-monospace">{step.id}</span>
        </div>
        <div className="small text-truncate">{summary}</div>
        {counts && (
          <div className="small text-body-secondary" data-testid={`step-counts-${step.id}`}>
            Reached {counts.reached.toLocaleString()} · Sent {counts.sent.toLocaleString()}
          </div>
        )}
        {problem && (
          <Badge bg="danger" className="text-wrap text-start">
            {problem}
          </Badge>
        )}
      </div>
      {out.map((port, i) => (
        <Handle
          key={port}
          id={port}
          type="source"
          position={Position.Bottom}
          style={{ left: handleLeft(i, out.length) }}
        />
      ))}
    </div>
  );
}

function StartBox({ data, selected }: NodeProps<StartNode>) {
  return (
    <div
      className={`journey-node card bg-body-tertiary ${selected ? 'border-primary' : ''}`}
      data-testid="step-start"
      style={{ width: NODE_WIDTH }}
    >
      <div className="card-body p-2 small">
        <strong>Start</strong>
        {data.triggers.length === 0 ? (
          <div className="text-body-secondary">No trigger yet</div>
        ) : (
          data.triggers.map((t, i) => (
            <div key={i} className="text-truncate">
              {t}
            </div>
          ))
        )}
      </div>
      <Handle id="next" type="source" position={Position.Bottom} />
    </div>
  );
}

export const nodeTypes = { step: StepBox, start: StartBox };

const GAP = 120;

/** The flow's boxes and arrows for a definition: a Start box for the triggers, then one box per step. */
export function toFlow(
  def: JourneyDefinition,
  names: Names,
  options: { problems?: Map<string, string>; counts?: Map<string, StepCounts>; editable?: boolean } = {},
): { nodes: FlowNode[]; edges: Edge[] } {
  const first = def.steps.find((s) => s.id === def.start);
  const startNode: StartNode = {
    id: START,
    type: 'start',
    position: { x: first?.x ?? 0, y: (first?.y ?? 0) - GAP },
    data: { triggers: def.triggers.map((t) => triggerSummary(t, names)) },
    deletable: false,
    draggable: false,
  };
  const stepNodes: StepNode[] = def.steps.map((step) => ({
    id: step.id,
    type: 'step',
    position: { x: step.x ?? 0, y: step.y ?? 0 },
    data: {
      step,
      summary: stepSummary(step, names),
      problem: options.problems?.get(step.id),
      counts: options.counts?.get(step.id),
    },
    deletable: options.editable ?? false,
    draggable: options.editable ?? false,
  }));
  const edges: Edge[] = [];
  if (first) edges.push({ id: `${START}:next`, source: START, sourceHandle: 'next', target: first.id, deletable: options.editable });
  for (const step of def.steps) {
    for (const port of ports(step) as Port[]) {
      const to = target(step, port);
      if (!to || !def.steps.some((s) => s.id === to)) continue;
      edges.push({
        id: `${step.id}:${port}`,
        source: step.id,
        sourceHandle: port,
        target: to,
        label: PORT_LABELS[port] || undefined,
        deletable: options.editable,
      });
    }
  }
  return { nodes: [startNode, ...stepNodes], edges };
}
