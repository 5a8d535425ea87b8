/** The segment rule as the API takes it (docs/segments.md), and the rule builder's field catalogue. */

export type Window = { days: number } | { from: string; to: string };

export interface RuleCondition {
  field: string;
  op: string;
  value?: unknown;
  window?: Window;
}

export interface RuleGroup {
  op: 'and' | 'or';
  conditions: RuleCondition[];
  groups: RuleGroup[];
}

/** How a condition's value is entered. */
export type InputKind =
  | 'days'
  | 'dateRange'
  | 'none'
  | 'amount'
  | 'amountRange'
  | 'count'
  | 'score'
  | 'bool'
  | 'originCodes'
  | 'lists'
  | 'segments'
  | 'sourceCodes'
  | 'words'
  | 'bands'
  | 'donorStatus'
  | 'subscription'
  | 'text'
  | 'cells';

export interface OpSpec {
  op: string;
  label: string;
  input: InputKind;
}

export interface FieldSpec {
  field: string;
  label: string;
  group: 'Giving' | 'RFM' | 'Engagement' | 'Attributes';
  ops: OpSpec[];
  /** Whether a time window may (optional) or must (required) narrow it. */
  window?: 'optional' | 'required';
}

const windowOps: OpSpec[] = [
  { op: 'withinDays', label: 'within the last N days', input: 'days' },
  { op: 'between', label: 'between dates', input: 'dateRange' },
];
const compare = (input: InputKind, withEq = false): OpSpec[] => [
  { op: 'gte', label: 'at least', input },
  { op: 'lte', label: 'at most', input },
  ...(withEq ? [{ op: 'eq', label: 'exactly', input }] : []),
];
const member = (input: InputKind): OpSpec[] => [
  { op: 'in', label: 'is any of', input },
  { op: 'notIn', label: 'is none of', input },
];

export const FIELDS: FieldSpec[] = [
  { field: 'gave', label: 'Gave', group: 'Giving', ops: [...windowOps, { op: 'never', label: 'never', input: 'none' }] },
  { field: 'firstGift', label: 'First gift', group: 'Giving', ops: windowOps },
  { field: 'totalGiven', label: 'Total given', group: 'Giving', ops: compare('amount'), window: 'optional' },
  { field: 'giftCount', label: 'Number of gifts', group: 'Giving', ops: compare('count', true), window: 'optional' },
  {
    field: 'hpc',
    label: 'Highest previous contribution',
    group: 'Giving',
    ops: [...compare('amount'), { op: 'between', label: 'between', input: 'amountRange' }],
  },
  {
    field: 'mrc',
    label: 'Most recent contribution',
    group: 'Giving',
    ops: [...compare('amount'), { op: 'between', label: 'between', input: 'amountRange' }],
  },
  { field: 'activeSustainer', label: 'Active sustainer', group: 'Giving', ops: [{ op: 'is', label: 'is', input: 'bool' }] },
  { field: 'sourceCode', label: 'Gave to source code', group: 'Giving', ops: [{ op: 'in', label: 'any of', input: 'sourceCodes' }], window: 'optional' },
  { field: 'channel', label: 'Gave to channel', group: 'Giving', ops: [{ op: 'in', label: 'any of', input: 'words' }], window: 'optional' },
  { field: 'campaign', label: 'Gave to campaign', group: 'Giving', ops: [{ op: 'in', label: 'any of', input: 'words' }], window: 'optional' },
  { field: 'recencyBand', label: 'Recency band', group: 'Giving', ops: [{ op: 'in', label: 'is any of', input: 'bands' }] },
  { field: 'donorStatus', label: 'Donor status', group: 'Giving', ops: [{ op: 'is', label: 'is', input: 'donorStatus' }] },
  { field: 'rfmRecency', label: 'RFM recency score', group: 'RFM', ops: compare('score', true) },
  { field: 'rfmFrequency', label: 'RFM frequency score', group: 'RFM', ops: compare('score', true) },
  { field: 'rfmMonetary', label: 'RFM monetary score', group: 'RFM', ops: compare('score', true) },
  { field: 'rfmCell', label: 'RFM cell', group: 'RFM', ops: [{ op: 'in', label: 'is any of', input: 'cells' }] },
  { field: 'opened', label: 'Opened', group: 'Engagement', ops: [{ op: 'withinDays', label: 'within the last N days', input: 'days' }] },
  { field: 'clicked', label: 'Clicked', group: 'Engagement', ops: [{ op: 'withinDays', label: 'within the last N days', input: 'days' }] },
  { field: 'mailingsReceived', label: 'Mailings received', group: 'Engagement', ops: compare('count'), window: 'required' },
  { field: 'originCode', label: 'Origin code', group: 'Attributes', ops: member('originCodes') },
  { field: 'list', label: 'Member of list', group: 'Attributes', ops: member('lists') },
  { field: 'segment', label: 'Member of segment', group: 'Attributes', ops: member('segments') },
  { field: 'state', label: 'State', group: 'Attributes', ops: [{ op: 'in', label: 'is any of', input: 'words' }] },
  { field: 'zipPrefix', label: 'ZIP prefix', group: 'Attributes', ops: [{ op: 'startsWith', label: 'starts with', input: 'text' }] },
  { field: 'created', label: 'Created', group: 'Attributes', ops: windowOps },
  { field: 'subscription', label: 'Subscription', group: 'Attributes', ops: [{ op: 'in', label: 'is any of', input: 'subscription' }] },
];

export const fieldSpec = (field: string): FieldSpec => FIELDS.find((f) => f.field === field) ?? FIELDS[0];

export const opSpec = (field: string, op: string): OpSpec => {
  const spec = fieldSpec(field);
  return spec.ops.find((o) => o.op === op) ?? spec.ops[0];
};

/** A sensible starting value for an input. */
export function defaultValue(input: InputKind): unknown {
  switch (input) {
    case 'days':
      return 30;
    case 'dateRange':
      return { from: '', to: '' };
    case 'amount':
      return '100';
    case 'amountRange':
      return { min: '25', max: '100' };
    case 'count':
      return 1;
    case 'score':
      return 5;
    case 'bool':
      return true;
    case 'bands':
      return ['active'];
    case 'donorStatus':
      return 'lybunt';
    case 'subscription':
      return ['subscribed'];
    case 'text':
      return '';
    case 'none':
      return undefined;
    default:
      return [];
  }
}

/** A new condition of `field` with its first operator and a default value. */
export function newCondition(field = 'gave'): RuleCondition {
  const spec = fieldSpec(field);
  const op = spec.ops[0];
  const condition: RuleCondition = { field, op: op.op, value: defaultValue(op.input) };
  if (spec.window === 'required') condition.window = { days: 30 };
  return condition;
}

export const emptyRule = (): RuleGroup => ({ op: 'and', conditions: [newCondition()], groups: [] });

/** A rule as stored (any JSON) read into the builder's shape; missing parts become empty. */
export function toRule(raw: unknown): RuleGroup {
  const obj = (raw ?? {}) as Partial<RuleGroup>;
  return {
    op: obj.op === 'or' ? 'or' : 'and',
    conditions: Array.isArray(obj.conditions) ? obj.conditions : [],
    groups: Array.isArray(obj.groups) ? obj.groups.map(toRule) : [],
  };
}

/** The change in size since the last compute, signed ("+12", "-3"); a dash before a second compute. */
export function changeLabel(change: number | null | undefined): string {
  if (change === null || change === undefined) return '—';
  if (change === 0) return '0';
  return change > 0 ? `+${change.toLocaleString()}` : change.toLocaleString();
}
