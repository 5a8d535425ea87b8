import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Dropdown from 'react-bootstrap/Dropdown';
import Row from 'react-bootstrap/Row';
import {
  addStep,
  connect,
  disconnect,
  findStep,
  ports,
  removeStep,
  renameStep,
  START,
  STEP_KINDS,
  STEP_LABELS,
  target,
  updateStep,
} from '../definition';
import type { JourneyDefinition, StepKind } from '../types';
import { validate } from '../validate';
import { FlowCanvas } from './flow-canvas';
import { useNames } from './pickers';
import { SettingsPanel } from './settings-panel';
import { StepPanel } from './step-panel';

export interface JourneyBuilderProps {
  definition: JourneyDefinition;
  onChange: (definition: JourneyDefinition) => void;
}

/**
 * The journey builder: the flow (drag boxes, drag from a port to a box to connect, Delete removes) beside a panel
 * editing the chosen step, or the journey's triggers, re-entry and exit when Start is chosen. Every change goes
 * through the definition operations, so references stay whole; what the server would still refuse is listed under
 * the flow.
 */
export function JourneyBuilder({ definition, onChange }: JourneyBuilderProps) {
  const names = useNames();
  const [selected, setSelected] = useState<string>(START);
  const problems = useMemo(() => validate(definition), [definition]);
  const byStep = useMemo(() => {
    const map = new Map<string, string>();
    for (const p of problems) if (p.stepId && !map.has(p.stepId)) map.set(p.stepId, p.message);
    return map;
  }, [problems]);
  const step = findStep(definition, selected);

  /** A new step goes after the chosen one (on its first free port), else first, else at the bottom on its own. */
  const add = (kind: StepKind) => {
    let after: { from: string; port: 'next' | 'yes' | 'no' | 'a' | 'b' } | undefined;
    if (step) {
      const out = ports(step);
      const port = out.find((p) => target(step, p) === null) ?? out[0];
      if (port) after = { from: step.id, port };
    } else if (!definition.start) {
      after = { from: START, port: 'next' };
    }
    const result = addStep(definition, kind, after);
    onChange(result.definition);
    setSelected(result.id);
  };

  return (
    <Row className="g-3">
      <Col lg={8}>
        <div className="d-flex gap-2 mb-2">
          <Dropdown onSelect={(kind) => kind && add(kind as StepKind)}>
            <Dropdown.Toggle size="sm">Add step</Dropdown.Toggle>
            <Dropdown.Menu>
              {STEP_KINDS.map((k) => (
                <Dropdown.Item key={k} eventKey={k}>
                  {STEP_LABELS[k]}
                </Dropdown.Item>
              ))}
            </Dropdown.Menu>
          </Dropdown>
          <Button size="sm" variant="outline-secondary" onClick={() => setSelected(START)}>
            Triggers and exit
          </Button>
        </div>
        <FlowCanvas
          definition={definition}
          names={names}
          editable
          problems={byStep}
          selected={selected}
          onSelect={setSelected}
          onChange={onChange}
        />
        {problems.length > 0 && (
          <Alert variant="warning" className="mt-2 small" aria-label="Problems">
            <ul className="mb-0 ps-3">
              {problems.map((p, i) => (
                <li key={i}>{p.message}</li>
              ))}
            </ul>
          </Alert>
        )}
      </Col>
      <Col lg={4}>
        {step ? (
          <StepPanel
            key={step.id}
            definition={definition}
            step={step}
            onUpdate={(patch) => onChange(updateStep(definition, step.id, patch))}
            onRename={(newId) => {
              const next = renameStep(definition, step.id, newId);
              onChange(next);
              if (next !== definition) setSelected(newId.trim());
            }}
            onConnect={(port, to) =>
              onChange(to ? connect(definition, step.id, port, to) : disconnect(definition, step.id, port))
            }
            onAddAfter={(kind, port) => {
              const result = addStep(definition, kind, { from: step.id, port });
              onChange(result.definition);
              setSelected(result.id);
            }}
            onRemove={() => {
              onChange(removeStep(definition, step.id));
              setSelected(START);
            }}
          />
        ) : (
          <SettingsPanel definition={definition} onChange={onChange} />
        )}
      </Col>
    </Row>
  );
}
