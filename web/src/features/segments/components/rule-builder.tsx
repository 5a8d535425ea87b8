import { useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { keepPreviousData } from '@tanstack/react-query';
import { useListContribcodeNames, useListCrmLists, useListSegmentNames, useSearchOriginCodes } from '@/api/gen';
import { SearchableMultiSelect, type MultiSelectItem } from '@/components/form/searchable-multi-select';
import {
  defaultValue,
  FIELDS,
  fieldSpec,
  newCondition,
  opSpec,
  type InputKind,
  type RuleCondition,
  type RuleGroup,
} from '../rule';

/** Groups nest at most this deep (the API refuses deeper rules). */
const MAX_DEPTH = 5;

interface GroupEditorProps {
  group: RuleGroup;
  onChange: (group: RuleGroup) => void;
  onRemove?: () => void;
  depth?: number;
  path?: string;
}

/** The rule builder: a group of conditions joined by AND or OR, with nested groups. */
export function RuleBuilder({ group, onChange, onRemove, depth = 1, path = 'rule' }: GroupEditorProps) {
  const setCondition = (i: number, c: RuleCondition) =>
    onChange({ ...group, conditions: group.conditions.map((old, j) => (j === i ? c : old)) });
  const setGroup = (i: number, g: RuleGroup) =>
    onChange({ ...group, groups: group.groups.map((old, j) => (j === i ? g : old)) });
  return (
    <Card className="mb-2" data-testid={`group-${path}`}>
      <Card.Body className="py-2">
        <div className="d-flex align-items-center gap-2 mb-2">
          <ButtonGroup size="sm" aria-label="Join conditions with">
            {(['and', 'or'] as const).map((op) => (
              <Button
                key={op}
                variant={group.op === op ? 'primary' : 'outline-primary'}
                onClick={() => onChange({ ...group, op })}
                aria-pressed={group.op === op}
              >
                {op.toUpperCase()}
              </Button>
            ))}
          </ButtonGroup>
          <span className="small text-body-secondary">
            {group.op === 'and' ? 'All of these hold' : 'Any of these holds'}
          </span>
          {onRemove && (
            <Button size="sm" variant="outline-danger" className="ms-auto" onClick={onRemove}>
              Remove group
            </Button>
          )}
        </div>
        {group.conditions.map((c, i) => (
          <ConditionEditor
            key={`${path}.c${i}`}
            condition={c}
            onChange={(next) => setCondition(i, next)}
            onRemove={() => onChange({ ...group, conditions: group.conditions.filter((_, j) => j !== i) })}
          />
        ))}
        {group.groups.map((g, i) => (
          <RuleBuilder
            key={`${path}.g${i}`}
            group={g}
            depth={depth + 1}
            path={`${path}.groups[${i}]`}
            onChange={(next) => setGroup(i, next)}
            onRemove={() => onChange({ ...group, groups: group.groups.filter((_, j) => j !== i) })}
          />
        ))}
        <div className="d-flex gap-2">
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={() => onChange({ ...group, conditions: [...group.conditions, newCondition()] })}
          >
            Add condition
          </Button>
          {depth < MAX_DEPTH && (
            <Button
              size="sm"
              variant="outline-secondary"
              onClick={() =>
                onChange({ ...group, groups: [...group.groups, { op: 'and', conditions: [newCondition()], groups: [] }] })
              }
            >
              Add group
            </Button>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}

function ConditionEditor({
  condition,
  onChange,
  onRemove,
}: {
  condition: RuleCondition;
  onChange: (c: RuleCondition) => void;
  onRemove: () => void;
}) {
  const spec = fieldSpec(condition.field);
  const op = opSpec(condition.field, condition.op);
  const windowId = useId();
  return (
    <div className="d-flex flex-wrap align-items-start gap-2 mb-2 border-bottom pb-2" data-testid="condition">
      <Form.Select
        size="sm"
        style={{ maxWidth: 240 }}
        aria-label="Field"
        value={condition.field}
        onChange={(e) => onChange(newCondition(e.target.value))}
      >
        {(['Giving', 'RFM', 'Engagement', 'Attributes'] as const).map((g) => (
          <optgroup key={g} label={g}>
            {FIELDS.filter((f) => f.group === g).map((f) => (
              <option key={f.field} value={f.field}>
                {f.label}
              </option>
            ))}
          </optgroup>
        ))}
      </Form.Select>
      <Form.Select
        size="sm"
        style={{ maxWidth: 200 }}
        aria-label="Operator"
        value={op.op}
        onChange={(e) => {
          const next = opSpec(condition.field, e.target.value);
          const sameInput = next.input === op.input;
          onChange({ ...condition, op: next.op, value: sameInput ? condition.value : defaultValue(next.input) });
        }}
      >
        {spec.ops.map((o) => (
          <option key={o.op} value={o.op}>
            {o.label}
          </option>
        ))}
      </Form.Select>
      <div style={{ minWidth: 200, flex: '1 1 240px' }}>
        <ValueInput input={op.input} value={condition.value} onChange={(value) => onChange({ ...condition, value })} />
      </div>
      {spec.window && (
        <Form.Group className="d-flex align-items-center gap-1">
          <Form.Check
            type="checkbox"
            id={windowId}
            label="in the last"
            checked={condition.window !== undefined}
            disabled={spec.window === 'required'}
            onChange={(e) => onChange({ ...condition, window: e.target.checked ? { days: 365 } : undefined })}
          />
          {condition.window && 'days' in condition.window && (
            <Form.Control
              size="sm"
              type="number"
              min={1}
              aria-label="Window days"
              style={{ width: 90 }}
              value={condition.window.days}
              onChange={(e) => onChange({ ...condition, window: { days: Number(e.target.value) } })}
            />
          )}
          <span className="small">days</span>
        </Form.Group>
      )}
      <Button size="sm" variant="outline-danger" onClick={onRemove} aria-label="Remove condition">
        Remove
      </Button>
    </div>
  );
}

const BANDS: MultiSelectItem[] = [
  { id: 'active', label: 'Active (0–12 months)' },
  { id: 'lapsed', label: 'Lapsed (13–24 months)' },
  { id: 'longLapsed', label: 'Long-lapsed (25+ months)' },
  { id: 'never', label: 'Never gave' },
];
const SUBSCRIPTIONS: MultiSelectItem[] = [
  { id: 'subscribed', label: 'Subscribed' },
  { id: 'unsubscribed', label: 'Unsubscribed' },
  { id: 'bounced', label: 'Bounced' },
];

function ValueInput({ input, value, onChange }: { input: InputKind; value: unknown; onChange: (v: unknown) => void }) {
  switch (input) {
    case 'none':
      return null;
    case 'days':
    case 'count':
      return (
        <Form.Control
          size="sm"
          type="number"
          min={input === 'days' ? 1 : 0}
          aria-label={input === 'days' ? 'Days' : 'Count'}
          value={Number(value ?? 0)}
          onChange={(e) => onChange(Number(e.target.value))}
        />
      );
    case 'score':
      return (
        <Form.Select size="sm" aria-label="Score" value={Number(value ?? 5)} onChange={(e) => onChange(Number(e.target.value))}>
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n}>{n}</option>
          ))}
        </Form.Select>
      );
    case 'amount':
      return (
        <Form.Control
          size="sm"
          inputMode="decimal"
          aria-label="Amount"
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'amountRange': {
      const range = (value ?? { min: '', max: '' }) as { min: string; max: string };
      return (
        <div className="d-flex gap-1">
          <Form.Control size="sm" aria-label="Minimum" value={range.min} onChange={(e) => onChange({ ...range, min: e.target.value })} />
          <Form.Control size="sm" aria-label="Maximum" value={range.max} onChange={(e) => onChange({ ...range, max: e.target.value })} />
        </div>
      );
    }
    case 'dateRange': {
      const range = (value ?? { from: '', to: '' }) as { from: string; to: string };
      return (
        <div className="d-flex gap-1">
          <Form.Control size="sm" type="date" aria-label="From" value={range.from} onChange={(e) => onChange({ ...range, from: e.target.value })} />
          <Form.Control size="sm" type="date" aria-label="To" value={range.to} onChange={(e) => onChange({ ...range, to: e.target.value })} />
        </div>
      );
    }
    case 'bool':
      return (
        <Form.Select size="sm" aria-label="Yes or no" value={String(value)} onChange={(e) => onChange(e.target.value === 'true')}>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </Form.Select>
      );
    case 'donorStatus':
      return (
        <Form.Select size="sm" aria-label="Donor status" value={String(value)} onChange={(e) => onChange(e.target.value)}>
          <option value="lybunt">LYBUNT</option>
          <option value="sybunt">SYBUNT</option>
        </Form.Select>
      );
    case 'text':
      return <Form.Control size="sm" aria-label="Text" value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />;
    case 'words':
    case 'cells':
      return (
        <Form.Control
          size="sm"
          aria-label={input === 'cells' ? 'RFM cells, comma separated' : 'Values, comma separated'}
          placeholder={input === 'cells' ? 'e.g. 555, 545' : 'comma separated'}
          value={Array.isArray(value) ? (value as string[]).join(', ') : ''}
          onChange={(e) =>
            onChange(
              e.target.value
                .split(',')
                .map((w) => w.trim())
                .filter((w) => w !== ''),
            )
          }
        />
      );
    case 'bands':
      return <FixedMultiSelect label="Recency bands" items={BANDS} value={value} onChange={onChange} />;
    case 'subscription':
      return <FixedMultiSelect label="Subscription status" items={SUBSCRIPTIONS} value={value} onChange={onChange} />;
    case 'originCodes':
      return <OriginCodesInput value={value} onChange={onChange} />;
    case 'lists':
      return <ListsInput value={value} onChange={onChange} />;
    case 'segments':
      return <SegmentsInput value={value} onChange={onChange} />;
    case 'sourceCodes':
      return <SourceCodesInput value={value} onChange={onChange} />;
  }
}

const asIds = (value: unknown): (string | number)[] => (Array.isArray(value) ? (value as (string | number)[]) : []);

/** A multi-select over a known, client-filtered set of items. */
function FixedMultiSelect({
  label,
  items,
  value,
  onChange,
  loading,
}: {
  label: string;
  items: MultiSelectItem[];
  value: unknown;
  onChange: (v: unknown) => void;
  loading?: boolean;
}) {
  const [term, setTerm] = useState('');
  const ids = asIds(value);
  const chosen = ids.map((id) => items.find((i) => i.id === id) ?? { id, label: `#${id}` });
  const options = useMemo(
    () => items.filter((i) => i.label.toLowerCase().includes(term.toLowerCase())).slice(0, 50),
    [items, term],
  );
  return (
    <SearchableMultiSelect
      label={label}
      value={chosen}
      onChange={(next) => onChange(next.map((i) => i.id))}
      options={options}
      onSearch={setTerm}
      loading={loading}
      placeholder={`Search ${label.toLowerCase()}…`}
    />
  );
}

function ListsInput({ value, onChange }: { value: unknown; onChange: (v: unknown) => void }) {
  const lists = useListCrmLists({ query: { meta: { errorMessage: 'Could not load lists' } } });
  const items = useMemo(() => (lists.data ?? []).map((l) => ({ id: l.id, label: l.name })), [lists.data]);
  return <FixedMultiSelect label="Lists" items={items} value={value} onChange={onChange} loading={lists.isFetching} />;
}

function SegmentsInput({ value, onChange }: { value: unknown; onChange: (v: unknown) => void }) {
  const names = useListSegmentNames({ query: { meta: { errorMessage: 'Could not load segments' } } });
  return <FixedMultiSelect label="Segments" items={names.data ?? []} value={value} onChange={onChange} loading={names.isFetching} />;
}

function SourceCodesInput({ value, onChange }: { value: unknown; onChange: (v: unknown) => void }) {
  const codes = useListContribcodeNames({ query: { meta: { errorMessage: 'Could not load source codes' } } });
  return (
    <FixedMultiSelect label="Source codes" items={codes.data ?? []} value={value} onChange={onChange} loading={codes.isFetching} />
  );
}

function OriginCodesInput({ value, onChange }: { value: unknown; onChange: (v: unknown) => void }) {
  const [term, setTerm] = useState('');
  const [known, setKnown] = useState<Record<string, string>>({});
  const search = useSearchOriginCodes(term ? { q: term } : undefined, {
    query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load origin codes' } },
  });
  const options = (search.data ?? []).map((o) => ({ id: o.id, label: o.name }));
  const chosen = asIds(value).map((id) => ({
    id,
    label: known[String(id)] ?? options.find((o) => o.id === id)?.label ?? `#${id}`,
  }));
  return (
    <SearchableMultiSelect
      label="Origin codes"
      value={chosen}
      onChange={(next) => {
        setKnown((k) => ({ ...k, ...Object.fromEntries(next.map((i) => [String(i.id), i.label])) }));
        onChange(next.map((i) => i.id));
      }}
      options={options}
      onSearch={setTerm}
      loading={search.isFetching}
      placeholder="Search origin codes…"
    />
  );
}
