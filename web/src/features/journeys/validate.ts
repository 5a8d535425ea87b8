/**
 * The checks the server makes on save, run in the browser as the journey is drawn so the problems show beside the
 * flow (the server stays the judge: it also checks that templates, lists, segments and forms exist).
 */
import { ports, target, variantLetter } from './definition';
import type { JourneyDefinition, Step } from './types';

export interface Problem {
  /** The step the problem is in; none for the journey as a whole. */
  stepId?: string;
  message: string;
}

const WAIT_KINDS = new Set<Step['kind']>(['wait', 'wait_until', 'wait_date']);
const STEP_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

function fieldProblems(step: Step): string[] {
  const name = `Step "${step.id}"`;
  switch (step.kind) {
    case 'send':
      return [
        ...(step.body_html === undefined
          ? (step.template_id ?? 0) > 0
            ? []
            : [`${name} needs a template.`]
          : step.body_html.trim()
            ? []
            : [`${name} needs a body.`]),
        ...(step.subject.trim() ? [] : [`${name} needs a subject.`]),
        ...(step.variants ?? []).flatMap((v, i) =>
          v.subject?.trim() || v.body_html?.trim()
            ? []
            : [`Variant ${variantLetter(i)} of step "${step.id}" needs its own subject (at most 300 characters) or body.`],
        ),
      ];
    case 'wait':
      return step.hours > 0 ? [] : [`${name} must wait at least one hour.`];
    case 'wait_until':
      return step.weekday >= 0 && step.weekday <= 6 && step.hour >= 0 && step.hour <= 23
        ? []
        : [`${name} needs a weekday from 0 (Monday) to 6 and an hour from 0 to 23.`];
    case 'wait_date':
      return /^\d{4}-\d{2}-\d{2}$/.test(step.date) ? [] : [`${name} needs a date.`];
    case 'branch':
      if (step.condition.kind === 'gave_at_least' && !(step.condition.amount_cents > 0)) {
        return [`${name} needs an amount above zero.`];
      }
      if (step.condition.kind === 'in_segment' && !(step.condition.segment_id > 0)) return [`${name} needs a segment.`];
      return [];
    case 'split':
      return step.percent >= 0 && step.percent <= 100 ? [] : [`${name} splits by a percentage above 100.`];
    case 'add_to_list':
    case 'remove_from_list':
      return step.list_id > 0 ? [] : [`${name} needs a list.`];
    case 'set_origin_code':
      return step.origin_code.trim() ? [] : [`${name} needs an origin code.`];
    case 'end':
      return [];
  }
}

/** Steps reachable from the start, in visiting order. */
export function reachable(def: JourneyDefinition): Set<string> {
  const byId = new Map(def.steps.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const stack = def.start ? [def.start] : [];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const step = byId.get(id);
    if (!step || seen.has(id)) continue;
    seen.add(id);
    for (const p of ports(step)) {
      const to = target(step, p);
      if (to) stack.push(to);
    }
  }
  return seen;
}

/** A step on a loop that has no wait in it (a contact would go round without end), or undefined. */
function loopWithoutWait(def: JourneyDefinition): string | undefined {
  const byId = new Map(def.steps.filter((s) => !WAIT_KINDS.has(s.kind)).map((s) => [s.id, s]));
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): string | undefined => {
    state.set(id, 'open');
    const step = byId.get(id) as Step;
    for (const p of ports(step)) {
      const to = target(step, p);
      if (!to || !byId.has(to)) continue;
      if (state.get(to) === 'open') return to;
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const id of byId.keys()) {
    if (!state.has(id)) {
      const found = visit(id);
      if (found) return found;
    }
  }
  return undefined;
}

/** Whether an e-mail has gone out before each step on every path from the start (a fixed point over the flow). */
function sentBefore(def: JourneyDefinition): Map<string, boolean> {
  const preds = new Map<string, Step[]>(def.steps.map((s) => [s.id, []]));
  for (const s of def.steps) {
    for (const p of ports(s)) {
      const to = target(s, p);
      if (to) preds.get(to)?.push(s);
    }
  }
  const sent = new Map(def.steps.map((s) => [s.id, s.id !== def.start]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of def.steps) {
      if (s.id === def.start) continue;
      const value = (preds.get(s.id) ?? []).every((p) => p.kind === 'send' || (sent.get(p.id) ?? false));
      if (value !== sent.get(s.id)) {
        sent.set(s.id, value);
        changed = true;
      }
    }
  }
  return sent;
}

/** Everything the server would refuse in this definition that can be told without asking it. */
export function validate(def: JourneyDefinition, { activating = false } = {}): Problem[] {
  const problems: Problem[] = [];
  const ids = new Set<string>();
  for (const s of def.steps) {
    if (!STEP_ID.test(s.id)) problems.push({ stepId: s.id, message: `Step "${s.id}" needs a name of letters and digits.` });
    if (ids.has(s.id)) problems.push({ stepId: s.id, message: `Step "${s.id}" is defined twice.` });
    ids.add(s.id);
  }
  if (activating && def.triggers.length === 0) problems.push({ message: 'A journey needs at least one trigger to be activated.' });
  if (def.reentry.kind === 'after_days' && !(def.reentry.days > 0)) {
    problems.push({ message: 'Re-entry needs a number of days above zero.' });
  }
  if (def.steps.length === 0) return [...problems, { message: 'A journey needs at least one step.' }];
  if (!ids.has(def.start)) problems.push({ message: 'Choose the first step (Start leads nowhere).' });
  for (const s of def.steps) {
    for (const p of ports(s)) {
      const to = target(s, p);
      if (to && !ids.has(to)) problems.push({ stepId: s.id, message: `Step "${s.id}" leads to "${to}", which does not exist.` });
    }
    for (const message of fieldProblems(s)) problems.push({ stepId: s.id, message });
  }
  const seen = reachable(def);
  for (const s of def.steps) {
    if (!seen.has(s.id)) problems.push({ stepId: s.id, message: `Step "${s.id}" cannot be reached.` });
  }
  const looping = loopWithoutWait(def);
  if (looping) problems.push({ stepId: looping, message: `Step "${looping}" is in a loop without a wait step.` });
  const sent = sentBefore(def);
  for (const s of def.steps) {
    if (s.kind === 'branch' && (s.condition.kind === 'opened' || s.condition.kind === 'clicked') && !sent.get(s.id)) {
      problems.push({ stepId: s.id, message: `Step "${s.id}" branches on an e-mail that may not have been sent yet.` });
    }
  }
  return problems;
}
