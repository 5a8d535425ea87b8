import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import { isValidRange, presets, type DateRange } from '@/lib/date-range';

/** Two dates (both included) with presets; a change is applied when both dates make a valid range. */
export function DateRangePicker({ value, onChange }: { value: DateRange; onChange: (range: DateRange) => void }) {
  const [draft, setDraft] = useState(value);
  // Follow a range set from outside (a preset, the address) without an effect.
  const [seen, setSeen] = useState(value);
  if (seen.from !== value.from || seen.to !== value.to) {
    setSeen(value);
    setDraft(value);
  }
  const valid = isValidRange(draft);
  const changed = draft.from !== value.from || draft.to !== value.to;
  return (
    <Form
      className="d-flex flex-wrap align-items-end gap-2"
      aria-label="Date range"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onChange(draft);
      }}
    >
      <Form.Group controlId="range-from">
        <Form.Label className="small mb-0">From</Form.Label>
        <Form.Control
          type="date"
          size="sm"
          value={draft.from}
          max={draft.to || undefined}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
      </Form.Group>
      <Form.Group controlId="range-to">
        <Form.Label className="small mb-0">To</Form.Label>
        <Form.Control
          type="date"
          size="sm"
          value={draft.to}
          min={draft.from || undefined}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
      </Form.Group>
      <Button type="submit" size="sm" variant="primary" disabled={!valid || !changed}>
        Apply
      </Button>
      <Dropdown>
        <Dropdown.Toggle size="sm" variant="outline-secondary" id="range-presets">
          Presets
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {presets().map((preset) => (
            <Dropdown.Item key={preset.label} as="button" type="button" onClick={() => onChange(preset.range)}>
              {preset.label}
            </Dropdown.Item>
          ))}
        </Dropdown.Menu>
      </Dropdown>
      {!valid && <Form.Text className="text-danger">The start must not be after the end.</Form.Text>}
    </Form>
  );
}
