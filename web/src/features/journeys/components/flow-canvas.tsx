import { useEffect, useMemo, useState } from 'react';
import {
  Background,
  Controls,
  ReactFlow,
  type Connection,
  type Dimensions,
  type EdgeChange,
  type NodeChange,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTheme } from '@/lib/theme';
import { connect, disconnect, moveStep, removeStep, START, type Port } from '../definition';
import type { Names } from '../describe';
import type { JourneyDefinition } from '../types';
import { nodeTypes, toFlow, type FlowNode, type StepCounts } from './flow-nodes';

export interface FlowCanvasProps {
  definition: JourneyDefinition;
  names: Names;
  /** Editing: boxes move, ports connect by dragging, Delete removes the chosen box or arrow. */
  editable?: boolean;
  problems?: Map<string, string>;
  counts?: Map<string, StepCounts>;
  selected?: string;
  onSelect?: (id: string) => void;
  onChange?: (definition: JourneyDefinition) => void;
  height?: number;
}

const FIT = { maxZoom: 1, padding: 0.15 };

/** Brings every box into view when a step is added or removed (a new step would otherwise land off screen). */
function FitOnGrow({ count }: { count: number }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    void fitView({ ...FIT, duration: 200 });
  }, [count, fitView]);
  return null;
}

/** An arrow's id is its source step and port (`send1:next`); the port is after the last colon. */
function splitEdgeId(id: string): [string, Port] {
  const at = id.lastIndexOf(':');
  return [id.slice(0, at), id.slice(at + 1) as Port];
}

/** The journey drawn as a flow: a Start box (the triggers), a box per step and an arrow per port. */
export function FlowCanvas({
  definition,
  names,
  editable = false,
  problems,
  counts,
  selected,
  onSelect,
  onChange,
  height = 560,
}: FlowCanvasProps) {
  const theme = useTheme();
  // The library measures the boxes; their sizes are kept here since the boxes themselves come from the definition.
  const [measured, setMeasured] = useState<Record<string, Dimensions>>({});
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const flow = useMemo(
    () => toFlow(definition, names, { problems, counts, editable }),
    [definition, names, problems, counts, editable],
  );
  const nodes = flow.nodes.map((n) => ({ ...n, measured: measured[n.id], selected: n.id === selected }));
  const edges = flow.edges.map((e) => ({ ...e, selected: e.id === selectedEdge }));

  const onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    let def = definition;
    let sizes: Record<string, Dimensions> | null = null;
    for (const c of changes) {
      if (c.type === 'dimensions' && c.dimensions) sizes = { ...(sizes ?? measured), [c.id]: c.dimensions };
      else if (c.type === 'position' && c.position && c.id !== START && editable) {
        def = moveStep(def, c.id, c.position.x, c.position.y);
      } else if (c.type === 'remove' && c.id !== START && editable) def = removeStep(def, c.id);
      else if (c.type === 'select' && c.selected) {
        setSelectedEdge(null);
        onSelect?.(c.id);
      }
    }
    if (sizes) setMeasured(sizes);
    if (def !== definition) onChange?.(def);
  };

  const onEdgesChange = (changes: EdgeChange[]) => {
    let def = definition;
    for (const c of changes) {
      if (c.type === 'select') setSelectedEdge(c.selected ? c.id : null);
      else if (c.type === 'remove' && editable) {
        const [from, port] = splitEdgeId(c.id);
        def = disconnect(def, from, port);
      }
    }
    if (def !== definition) onChange?.(def);
  };

  const onConnect = (c: Connection) => {
    if (editable && c.sourceHandle) onChange?.(connect(definition, c.source, c.sourceHandle as Port, c.target));
  };

  return (
    <div style={{ height }} className="border rounded" data-testid="journey-flow">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        nodesDraggable={editable}
        nodesConnectable={editable}
        colorMode={theme === 'dark' ? 'dark' : 'light'}
        fitView
        fitViewOptions={FIT}
      >
        <Background />
        <Controls showInteractive={false} />
        <FitOnGrow count={definition.steps.length} />
      </ReactFlow>
    </div>
  );
}
