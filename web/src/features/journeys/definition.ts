/**
 * Editing a journey definition without breaking it: every operation returns a new definition whose references
 * (start, next, yes/no, a/b) still point at steps that exist.
 */
import type { JourneyDefinition, Step, StepKind, Trigger, TriggerKind } from './types';

/** The pseudo-node the flow draws for the triggers; its one port is the definition's `start`. */
export const START = '__start';

/** The ports a step leads on from, in drawing order: the fields holding the following step's id. */
export type Port = 'next' | 'yes' | 'no' | 'a' | 'b';

export const STEP_LABELS: Record<StepKind, string> = {
  send: 'Send an e-mail',
  wait: 'Wait',
  wait_until: 'Wait until a weekday',
  wait_date: 'Wait until a date',
  branch: 'Branch',
  split: 'Random split',
  add_to_list: 'Add to list',
  remove_from_list: 'Remove from list',
  set_origin_code: 'Set origin code',
  end: 'End',
};

export const STEP_KINDS = Object.keys(STEP_LABELS) as StepKind[];

export const TRIGGER_LABELS: Record<TriggerKind, string> = {
  form_signup: 'Signs up on a form',
  origin_code_signup: 'Signs up with an origin code',
  list_added: 'Is added to a list',
  segment_entered: 'Enters a segment',
  first_gift: 'Makes a first gift',
  gift_over: 'Gives more than an amount',
  recurring_started: 'Starts a recurring gift',
  recurring_failed: 'A recurring gift fails',
  recurring_ended: 'A recurring gift ends',
  first_gift_anniversary: 'Anniversary of the first gift',
  date_field: 'A date field comes round',
};

/** The contact's date fields a journey can start on each year (the server's DATE_FIELDS). */
export const DATE_FIELD_LABELS: Record<string, string> = {
  signup_date: 'Signup date',
  last_gift_date: 'Last gift date',
};

export const TRIGGER_KINDS = Object.keys(TRIGGER_LABELS) as TriggerKind[];

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The merge tags the mailing editor offers; journey subjects and templates use the same ones. */
export const MERGE_TAGS = ['First.Name', 'Email'];

export function ports(step: Step): Port[] {
  switch (step.kind) {
    case 'branch':
      return ['yes', 'no'];
    case 'split':
      return ['a', 'b'];
    case 'end':
      return [];
    default:
      return ['next'];
  }
}

export const PORT_LABELS: Record<Port, string> = { next: '', yes: 'yes', no: 'no', a: 'A', b: 'B' };

/** The step a port leads to (null when it ends there). */
export function target(step: Step, port: Port): string | null {
  return (step as unknown as Record<Port, string | null | undefined>)[port] ?? null;
}

function withTarget(step: Step, port: Port, to: string | null): Step {
  if (!ports(step).includes(port)) return step;
  return { ...step, [port]: to } as Step;
}

export const emptyDefinition = (): JourneyDefinition => ({
  triggers: [],
  reentry: { kind: 'never' },
  exit_on_gift: false,
  start: '',
  steps: [],
});

export function newTrigger(kind: TriggerKind): Trigger {
  switch (kind) {
    case 'form_signup':
      return { kind, form_id: 0 };
    case 'origin_code_signup':
      return { kind, origin_code: '' };
    case 'list_added':
      return { kind, list_id: 0 };
    case 'segment_entered':
      return { kind, segment_id: 0 };
    case 'gift_over':
      return { kind, amount_cents: 10000 };
    case 'date_field':
      return { kind, field: 'signup_date' };
    default:
      return { kind };
  }
}

/** At most this many variants besides A, as the server allows. */
export const MAX_SEND_VARIANTS = 4;

/** The letter of the `index`-th variant after A: 0 → "B". */
export function variantLetter(index: number): string {
  return String.fromCharCode(66 + index);
}

export function newStep(kind: StepKind, id: string): Step {
  switch (kind) {
    case 'send':
      return { id, kind, template_id: 0, subject: '', on_cap: 'wait', next: null };
    case 'wait':
      return { id, kind, hours: 24, next: null };
    case 'wait_until':
      return { id, kind, weekday: 0, hour: 9, next: null };
    case 'wait_date':
      return { id, kind, date: '', next: null };
    case 'branch':
      return { id, kind, condition: { kind: 'opened' }, yes: null, no: null };
    case 'split':
      return { id, kind, percent: 50, a: null, b: null };
    case 'add_to_list':
    case 'remove_from_list':
      return { id, kind, list_id: 0, next: null };
    case 'set_origin_code':
      return { id, kind, origin_code: '', next: null };
    case 'end':
      return { id, kind };
  }
}

/** A step id not yet used: the kind and the first free number (`send1`, `send2`, …). */
export function freeId(def: JourneyDefinition, kind: StepKind): string {
  const used = new Set(def.steps.map((s) => s.id));
  for (let n = 1; ; n += 1) {
    const id = `${kind}${n}`;
    if (!used.has(id)) return id;
  }
}

export const findStep = (def: JourneyDefinition, id: string): Step | undefined => def.steps.find((s) => s.id === id);

const NODE_GAP = 120;

/**
 * Adds a step. With `after`, it goes in on that port: the port's old target becomes the new step's first port's
 * target, so a chain stays whole. The first step of an empty journey becomes its start.
 */
export function addStep(
  def: JourneyDefinition,
  kind: StepKind,
  after?: { from: string; port: Port },
): { definition: JourneyDefinition; id: string } {
  const id = freeId(def, kind);
  const source = after && after.from !== START ? findStep(def, after.from) : undefined;
  const oldTarget = after ? (after.from === START ? def.start || null : source ? target(source, after.port) : null) : null;
  const lowest = def.steps.reduce((max, s) => Math.max(max, s.y ?? 0), -NODE_GAP);
  let step = newStep(kind, id);
  const [firstPort] = ports(step);
  if (oldTarget && firstPort) step = withTarget(step, firstPort, oldTarget);
  step = {
    ...step,
    x: source?.x ?? 0,
    y: after ? (source?.y ?? -NODE_GAP) + NODE_GAP : lowest + NODE_GAP,
  };
  // Steps below the insertion point move down to make room.
  const moved = after && oldTarget ? shiftDown(def.steps, step.y ?? 0) : def.steps;
  let steps = moved.map((s) => (after && s.id === after.from ? withTarget(s, after.port, id) : s));
  steps = [...steps, step];
  const start = after?.from === START || !def.start ? id : def.start;
  return { definition: { ...def, start, steps }, id };
}

function shiftDown(steps: Step[], fromY: number): Step[] {
  return steps.map((s) => ((s.y ?? 0) >= fromY ? { ...s, y: (s.y ?? 0) + NODE_GAP } : s));
}

/** Points a port (or the start) at a step; a step cannot lead to itself. */
export function connect(def: JourneyDefinition, from: string, port: Port, to: string): JourneyDefinition {
  if (from === to || !findStep(def, to)) return def;
  if (from === START) return { ...def, start: to };
  return { ...def, steps: def.steps.map((s) => (s.id === from ? withTarget(s, port, to) : s)) };
}

/** Clears a port: the contact finishes the journey there. */
export function disconnect(def: JourneyDefinition, from: string, port: Port): JourneyDefinition {
  if (from === START) return { ...def, start: '' };
  return { ...def, steps: def.steps.map((s) => (s.id === from ? withTarget(s, port, null) : s)) };
}

/**
 * Removes a step. What led to it now leads where it led (its first port), so removing a step from a chain
 * closes the gap; a branch's other paths are left to end.
 */
export function removeStep(def: JourneyDefinition, id: string): JourneyDefinition {
  const removed = findStep(def, id);
  if (!removed) return def;
  const [firstPort] = ports(removed);
  let follow = firstPort ? target(removed, firstPort) : null;
  if (follow === id) follow = null;
  const relink = (to: string | null) => (to === id ? follow : to);
  const steps = def.steps
    .filter((s) => s.id !== id)
    .map((s) => ports(s).reduce((acc, p) => withTarget(acc, p, relink(target(acc, p))), s))
    // A step that led to the removed one must not now lead to itself.
    .map((s) => ports(s).reduce((acc, p) => (target(acc, p) === acc.id ? withTarget(acc, p, null) : acc), s));
  return { ...def, start: relink(def.start || null) ?? '', steps };
}

/** Renames a step and every reference to it; refused (unchanged) when the new id is empty or taken. */
export function renameStep(def: JourneyDefinition, id: string, newId: string): JourneyDefinition {
  const clean = newId.trim();
  if (!clean || clean === START || clean === id || findStep(def, clean)) return def;
  const rename = (to: string | null) => (to === id ? clean : to);
  const steps = def.steps.map((s) => {
    const renamed = ports(s).reduce((acc, p) => withTarget(acc, p, rename(target(acc, p))), s);
    return renamed.id === id ? { ...renamed, id: clean } : renamed;
  });
  return { ...def, start: def.start === id ? clean : def.start, steps };
}

/** Replaces a step's own fields (not its id or where it leads: those go through rename and connect). */
export function updateStep(def: JourneyDefinition, id: string, patch: Partial<Step>): JourneyDefinition {
  return {
    ...def,
    steps: def.steps.map((s) => {
      if (s.id !== id) return s;
      const links = Object.fromEntries(ports(s).map((p) => [p, target(s, p)]));
      return { ...s, ...patch, ...links, id: s.id, kind: s.kind } as Step;
    }),
  };
}

export function moveStep(def: JourneyDefinition, id: string, x: number, y: number): JourneyDefinition {
  return { ...def, steps: def.steps.map((s) => (s.id === id ? { ...s, x: Math.round(x), y: Math.round(y) } : s)) };
}
