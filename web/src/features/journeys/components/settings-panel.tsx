import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Field } from '@/components/form/field';
import { DATE_FIELD_LABELS, newTrigger, STEP_LABELS, TRIGGER_KINDS, TRIGGER_LABELS } from '../definition';
import type { JourneyDefinition, Trigger, TriggerKind } from '../types';
import { OriginCodeInput, Picker } from './pickers';

export interface SettingsPanelProps {
  definition: JourneyDefinition;
  onChange: (definition: JourneyDefinition) => void;
}

/** The journey as a whole: who enters (triggers), whether they may enter again, when they leave, the first step. */
export function SettingsPanel({ definition, onChange }: SettingsPanelProps) {
  const setTriggers = (triggers: Trigger[]) => onChange({ ...definition, triggers });
  const setTrigger = (index: number, trigger: Trigger) =>
    setTriggers(definition.triggers.map((t, i) => (i === index ? trigger : t)));
  const { reentry } = definition;
  return (
    <section aria-label="Journey settings">
      <h2 className="h6">Triggers</h2>
      {definition.triggers.length === 0 && <p className="small text-body-secondary">Nobody enters until a trigger is added.</p>}
      {definition.triggers.map((trigger, i) => (
        <fieldset key={i} className="border rounded p-2 mb-2" aria-label={`Trigger ${i + 1}`}>
          <Field
            id={`trigger-${i}-kind`}
            label={`Trigger ${i + 1}`}
            select
            value={trigger.kind}
            onChange={(e) => setTrigger(i, newTrigger(e.target.value as TriggerKind))}
            className="mb-2"
          >
            {TRIGGER_KINDS.map((k) => (
              <option key={k} value={k}>
                {TRIGGER_LABELS[k]}
              </option>
            ))}
          </Field>
          <TriggerFields trigger={trigger} f={`trigger-${i}`} onChange={(t) => setTrigger(i, t)} />
          <Button variant="outline-danger" size="sm" onClick={() => setTriggers(definition.triggers.filter((_, j) => j !== i))}>
            Remove trigger
          </Button>
        </fieldset>
      ))}
      <Button variant="outline-primary" size="sm" className="mb-3" onClick={() => setTriggers([...definition.triggers, newTrigger('form_signup')])}>
        Add trigger
      </Button>
      <Field
        id="journey-reentry"
        label="Entering again"
        select
        value={reentry.kind}
        onChange={(e) => onChange({ ...definition, reentry: e.target.value === 'never' ? { kind: 'never' } : { kind: 'after_days', days: 30 } })}
      >
        <option value="never">Never: a contact goes through once</option>
        <option value="after_days">After a number of days</option>
      </Field>
      {reentry.kind === 'after_days' && (
        <Field
          id="journey-reentry-days"
          label="Days before entering again"
          type="number"
          min={1}
          value={reentry.days}
          onChange={(e) => onChange({ ...definition, reentry: { kind: 'after_days', days: Number(e.target.value) || 0 } })}
          invalid={!(reentry.days > 0)}
          error="At least one day."
        />
      )}
      <Form.Check
        type="switch"
        id="journey-exit-on-gift"
        className="mb-3"
        label="Leaves when it gives (an ask series)"
        checked={definition.exit_on_gift}
        onChange={(e) => onChange({ ...definition, exit_on_gift: e.target.checked })}
      />
      <Field
        id="journey-start"
        label="First step"
        select
        value={definition.start}
        onChange={(e) => onChange({ ...definition, start: e.target.value })}
        hint={<Form.Text>Contacts also leave when they unsubscribe, bounce or complain.</Form.Text>}
      >
        <option value="">None yet</option>
        {definition.steps.map((s) => (
          <option key={s.id} value={s.id}>
            {s.id} ({STEP_LABELS[s.kind]})
          </option>
        ))}
      </Field>
    </section>
  );
}

function TriggerFields({ trigger, f, onChange }: { trigger: Trigger; f: string; onChange: (t: Trigger) => void }) {
  switch (trigger.kind) {
    case 'form_signup':
      return <Picker id={`${f}-form`} label="Form" kind="forms" value={trigger.form_id} onChange={(id) => onChange({ ...trigger, form_id: id })} />;
    case 'list_added':
      return <Picker id={`${f}-list`} label="List" kind="lists" value={trigger.list_id} onChange={(id) => onChange({ ...trigger, list_id: id })} />;
    case 'segment_entered':
      return (
        <Picker id={`${f}-segment`} label="Segment" kind="segments" value={trigger.segment_id} onChange={(id) => onChange({ ...trigger, segment_id: id })} />
      );
    case 'origin_code_signup':
      return <OriginCodeInput id={`${f}-origin-code`} value={trigger.origin_code} onChange={(code) => onChange({ ...trigger, origin_code: code })} />;
    case 'gift_over':
      return (
        <Field
          id={`${f}-amount`}
          label="More than (dollars)"
          type="number"
          min={0}
          step={0.01}
          value={trigger.amount_cents / 100}
          onChange={(e) => onChange({ ...trigger, amount_cents: Math.round((Number(e.target.value) || 0) * 100) })}
        />
      );
    case 'date_field':
      return (
        <Field id={`${f}-field`} label="Date field" select value={trigger.field} onChange={(e) => onChange({ ...trigger, field: e.target.value })}>
          {Object.entries(DATE_FIELD_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Field>
      );
    default:
      return null;
  }
}
