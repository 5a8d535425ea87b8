/** One-line descriptions of steps and triggers, as the flow's boxes and the lists show them. */
import { formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { DATE_FIELD_LABELS, STEP_LABELS, TRIGGER_LABELS, WEEKDAYS } from './definition';
import type { Condition, Step, Trigger } from './types';

/** Names of the things steps point at, by id (what the pickers loaded); an id without a name shows as "#id". */
export interface Names {
  templates: Map<number, string>;
  lists: Map<number, string>;
  segments: Map<number, string>;
  forms: Map<number, string>;
}

export const noNames = (): Names => ({ templates: new Map(), lists: new Map(), segments: new Map(), forms: new Map() });

const named = (names: Map<number, string>, id: number, what: string): string =>
  id > 0 ? (names.get(id) ?? `${what} #${id}`) : `no ${what} chosen`;

/** Whole cents as the app's money text, without passing through a float ("1234.50" → "$1,234.50"). */
/** A count in a figures table: a dash where the viewer may not see it. */
export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : formatCount(value);
}

export function dollars(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  const abs = Math.abs(Math.trunc(cents));
  return formatMoney(`${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`);
}

/** 48 → "2 days", 36 → "36 hours", 1 → "1 hour". */
export function duration(hours: number): string {
  if (hours > 0 && hours % 24 === 0) return hours === 24 ? '1 day' : `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

export function conditionText(condition: Condition, names: Names): string {
  switch (condition.kind) {
    case 'opened':
      return 'Opened an e-mail?';
    case 'clicked':
      return 'Clicked a link?';
    case 'gave':
      return 'Gave?';
    case 'gave_at_least':
      return `Gave at least ${dollars(condition.amount_cents)}?`;
    case 'in_segment':
      return `In ${named(names.segments, condition.segment_id, 'segment')}?`;
  }
}

export function stepSummary(step: Step, names: Names): string {
  switch (step.kind) {
    case 'send':
      return [
        step.subject || 'No subject',
        step.body_html === undefined ? named(names.templates, step.template_id ?? 0, 'template') : 'its own body',
        ...(step.variants?.length ? [`${step.variants.length + 1} variants`] : []),
      ].join(' · ');
    case 'wait':
      return duration(step.hours);
    case 'wait_until':
      return `${WEEKDAYS[step.weekday] ?? '?'} at ${String(step.hour).padStart(2, '0')}:00`;
    case 'wait_date':
      return step.date || 'no date chosen';
    case 'branch':
      return conditionText(step.condition, names);
    case 'split':
      return `${step.percent} % to A, ${100 - step.percent} % to B`;
    case 'add_to_list':
    case 'remove_from_list':
      return named(names.lists, step.list_id, 'list');
    case 'set_origin_code':
      return step.origin_code || 'no origin code chosen';
    case 'end':
      return STEP_LABELS.end;
  }
}

export function triggerSummary(trigger: Trigger, names: Names): string {
  const label = TRIGGER_LABELS[trigger.kind];
  switch (trigger.kind) {
    case 'form_signup':
      return `${label}: ${named(names.forms, trigger.form_id, 'form')}`;
    case 'origin_code_signup':
      return `${label}: ${trigger.origin_code || 'none chosen'}`;
    case 'list_added':
      return `${label}: ${named(names.lists, trigger.list_id, 'list')}`;
    case 'segment_entered':
      return `${label}: ${named(names.segments, trigger.segment_id, 'segment')}`;
    case 'gift_over':
      return `${label}: ${dollars(trigger.amount_cents)}`;
    case 'date_field':
      return `${label}: ${DATE_FIELD_LABELS[trigger.field] ?? 'no field chosen'}`;
    default:
      return label;
  }
}
