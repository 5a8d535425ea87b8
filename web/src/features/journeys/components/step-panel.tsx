import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Field } from '@/components/form/field';
import { PORT_LABELS, ports, STEP_KINDS, STEP_LABELS, target, WEEKDAYS, type Port } from '../definition';
import { duration } from '../describe';
import type { Condition, JourneyDefinition, Step, StepKind } from '../types';
import { OriginCodeInput, Picker } from './pickers';
import { SendFields } from './send-fields';

export interface StepPanelProps {
  definition: JourneyDefinition;
  step: Step;
  onUpdate: (patch: Partial<Step>) => void;
  onRename: (newId: string) => void;
  onConnect: (port: Port, to: string | null) => void;
  onAddAfter: (kind: StepKind, port: Port) => void;
  onRemove: () => void;
}

const PORT_FIELD: Record<Port, string> = { next: 'Then', yes: 'If yes', no: 'If no', a: 'Path A', b: 'Path B' };

const num = (value: string): number => (value.trim() === '' ? 0 : Number(value));

/** The side panel for the chosen step: its name, its own fields, where each of its ports leads, add and remove. */
export function StepPanel({ definition, step, onUpdate, onRename, onConnect, onAddAfter, onRemove }: StepPanelProps) {
  const [name, setName] = useState(step.id);
  const [addKind, setAddKind] = useState<StepKind>('send');
  const out = ports(step);
  const [addPort, setAddPort] = useState<Port>(out[0] ?? 'next');
  const taken = name.trim() !== step.id && definition.steps.some((s) => s.id === name.trim());
  const f = `step-${step.id}`;
  return (
    <section aria-label={`Step ${step.id}`}>
      <h2 className="h6">{STEP_LABELS[step.kind]}</h2>
      <Field
        id={`${f}-name`}
        label="Step name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        onBlur={() => (taken || !name.trim() ? setName(step.id) : onRename(name))}
        invalid={taken}
        error="Another step has this name."
        hint={<Form.Text>Save messages name steps by this.</Form.Text>}
      />
      <StepFields step={step} f={f} onUpdate={onUpdate} />
      {out.map((port) => (
        <Field
          key={port}
          id={`${f}-${port}`}
          label={PORT_FIELD[port]}
          select
          value={target(step, port) ?? ''}
          onChange={(e) => onConnect(port, e.target.value || null)}
        >
          <option value="">End the journey</option>
          {definition.steps
            .filter((s) => s.id !== step.id)
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.id} ({STEP_LABELS[s.kind]})
              </option>
            ))}
        </Field>
      ))}
      {out.length > 0 && (
        <fieldset className="border rounded p-2 mb-3">
          <legend className="small fw-semibold float-none w-auto px-1 mb-0">Add a step after this one</legend>
          <Field id={`${f}-add-kind`} label="Kind" select value={addKind} onChange={(e) => setAddKind(e.target.value as StepKind)} className="mb-2">
            {STEP_KINDS.map((k) => (
              <option key={k} value={k}>
                {STEP_LABELS[k]}
              </option>
            ))}
          </Field>
          {out.length > 1 && (
            <Field id={`${f}-add-port`} label="On" select value={addPort} onChange={(e) => setAddPort(e.target.value as Port)} className="mb-2">
              {out.map((p) => (
                <option key={p} value={p}>
                  {PORT_FIELD[p]} ({PORT_LABELS[p]})
                </option>
              ))}
            </Field>
          )}
          <Button size="sm" onClick={() => onAddAfter(addKind, out.includes(addPort) ? addPort : out[0])}>
            Add step
          </Button>
        </fieldset>
      )}
      <Button variant="outline-danger" size="sm" onClick={onRemove}>
        Remove step
      </Button>
    </section>
  );
}

function StepFields({ step, f, onUpdate }: { step: Step; f: string; onUpdate: (patch: Partial<Step>) => void }) {
  switch (step.kind) {
    case 'send':
      return <SendFields step={step} f={f} onUpdate={onUpdate} />;
    case 'wait':
      return (
        <Field
          id={`${f}-hours`}
          label="Hours to wait"
          type="number"
          min={1}
          value={step.hours}
          onChange={(e) => onUpdate({ hours: num(e.target.value) })}
          invalid={!(step.hours > 0)}
          error="Wait at least one hour."
          hint={<Form.Text>{duration(step.hours)}</Form.Text>}
        />
      );
    case 'wait_until':
      return (
        <>
          <Field id={`${f}-weekday`} label="Weekday" select value={step.weekday} onChange={(e) => onUpdate({ weekday: Number(e.target.value) })}>
            {WEEKDAYS.map((d, i) => (
              <option key={d} value={i}>
                {d}
              </option>
            ))}
          </Field>
          <Field
            id={`${f}-hour`}
            label="Hour (the client's time zone)"
            type="number"
            min={0}
            max={23}
            value={step.hour}
            onChange={(e) => onUpdate({ hour: num(e.target.value) })}
          />
        </>
      );
    case 'wait_date':
      return (
        <Field
          id={`${f}-date`}
          label="Date"
          type="date"
          value={step.date}
          onChange={(e) => onUpdate({ date: e.target.value })}
          invalid={!step.date}
          error="Choose a date."
        />
      );
    case 'branch':
      return <ConditionFields condition={step.condition} f={f} onChange={(condition) => onUpdate({ condition })} />;
    case 'split':
      return (
        <Field
          id={`${f}-percent`}
          label="Percent down path A"
          type="number"
          min={0}
          max={100}
          value={step.percent}
          onChange={(e) => onUpdate({ percent: num(e.target.value) })}
          invalid={!(step.percent >= 0 && step.percent <= 100)}
          error="From 0 to 100."
        />
      );
    case 'add_to_list':
    case 'remove_from_list':
      return <Picker id={`${f}-list`} label="List" kind="lists" value={step.list_id} onChange={(id) => onUpdate({ list_id: id })} />;
    case 'set_origin_code':
      return <OriginCodeInput id={`${f}-origin-code`} value={step.origin_code} onChange={(code) => onUpdate({ origin_code: code })} />;
    case 'end':
      return null;
  }
}

const CONDITIONS: Record<Condition['kind'], string> = {
  opened: 'Opened an e-mail of this journey',
  clicked: 'Clicked a link in an e-mail of this journey',
  gave: 'Gave',
  gave_at_least: 'Gave at least an amount',
  in_segment: 'Is in a segment',
};

function ConditionFields({ condition, f, onChange }: { condition: Condition; f: string; onChange: (c: Condition) => void }) {
  const change = (kind: Condition['kind']) => {
    if (kind === 'gave_at_least') onChange({ kind, amount_cents: 5000 });
    else if (kind === 'in_segment') onChange({ kind, segment_id: 0 });
    else onChange({ kind });
  };
  return (
    <>
      <Field
        id={`${f}-condition`}
        label="Since entering the journey, the contact…"
        select
        value={condition.kind}
        onChange={(e) => change(e.target.value as Condition['kind'])}
      >
        {Object.entries(CONDITIONS).map(([k, label]) => (
          <option key={k} value={k}>
            {label}
          </option>
        ))}
      </Field>
      {condition.kind === 'gave_at_least' && (
        <Field
          id={`${f}-amount`}
          label="Amount (dollars)"
          type="number"
          min={0.01}
          step={0.01}
          value={condition.amount_cents / 100}
          onChange={(e) => onChange({ ...condition, amount_cents: Math.round(num(e.target.value) * 100) })}
        />
      )}
      {condition.kind === 'in_segment' && (
        <Picker id={`${f}-segment`} label="Segment" kind="segments" value={condition.segment_id} onChange={(id) => onChange({ ...condition, segment_id: id })} />
      )}
    </>
  );
}
