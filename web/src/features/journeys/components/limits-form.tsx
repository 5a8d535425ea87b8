import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Field } from '@/components/form/field';
import type { JourneyLimits as Limits } from '@/api/gen/model';

type Key = keyof Limits;

const text = (value: number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/** A typed value as a limit: empty is none; otherwise a whole number in range, or an error message. */
export function parseLimit(value: string, min: number, max: number): number | null | string {
  const t = value.trim();
  if (t === '') return null;
  const n = Number(t);
  if (!Number.isInteger(n) || n < min || n > max) return `A whole number from ${min} to ${max}, or empty.`;
  return n;
}

const FIELDS: { key: Key; label: string; min: number; max: number }[] = [
  { key: 'per_day', label: 'E-mails per contact per day', min: 1, max: 100 },
  { key: 'per_week', label: 'E-mails per contact per week', min: 1, max: 700 },
  { key: 'quiet_start_hour', label: 'Quiet hours start (hour)', min: 0, max: 23 },
  { key: 'quiet_end_hour', label: 'Quiet hours end (hour)', min: 0, max: 23 },
];

export interface LimitsFormProps {
  limits: Limits;
  onSave: (limits: Limits) => void;
  saving: boolean;
  error?: string;
}

/**
 * The programme-wide frequency cap and quiet hours: they count journeys and regular sends alike. Empty is no limit.
 */
export function LimitsForm({ limits, onSave, saving, error }: LimitsFormProps) {
  const [values, setValues] = useState<Record<Key, string>>({
    per_day: text(limits.per_day),
    per_week: text(limits.per_week),
    quiet_start_hour: text(limits.quiet_start_hour),
    quiet_end_hour: text(limits.quiet_end_hour),
  });
  const parsed = Object.fromEntries(FIELDS.map((f) => [f.key, parseLimit(values[f.key], f.min, f.max)])) as Record<
    Key,
    number | null | string
  >;
  const quietHalf = (parsed.quiet_start_hour === null) !== (parsed.quiet_end_hour === null);
  const valid = FIELDS.every((f) => typeof parsed[f.key] !== 'string') && !quietHalf;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onSave(parsed as Limits);
  };
  return (
    <Card className="mb-3">
      <Card.Body>
        <Card.Title as="h2" className="h6">
          Frequency cap and quiet hours
        </Card.Title>
        <Form noValidate onSubmit={submit} aria-label="Frequency cap and quiet hours">
          <Row className="g-2">
            {FIELDS.map((f) => (
              <Col md={3} key={f.key}>
                <Field
                  id={`limits-${f.key}`}
                  label={f.label}
                  type="number"
                  min={f.min}
                  max={f.max}
                  value={values[f.key]}
                  placeholder="No limit"
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                  invalid={typeof parsed[f.key] === 'string'}
                  error={typeof parsed[f.key] === 'string' ? parsed[f.key] : undefined}
                  className="mb-2"
                />
              </Col>
            ))}
          </Row>
          {quietHalf && <div className="text-danger small mb-2">Give both ends of the quiet hours, or neither.</div>}
          <Form.Text className="d-block mb-2">
            Counts journey e-mails and regular sends together, in the client&apos;s time zone. A journey e-mail over the
            cap waits for the next allowed time or is skipped, as its step says.
          </Form.Text>
          {error && <Alert variant="danger">{error}</Alert>}
          <Button type="submit" size="sm" disabled={!valid || saving}>
            Save limits
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
