/**
 * A journey's definition as the server stores it per version (the contract in issue 31): triggers, re-entry, the
 * exit rule and the steps. The builder edits exactly this object; the server validates it on save.
 */

export type TriggerKind =
  | 'form_signup'
  | 'origin_code_signup'
  | 'list_added'
  | 'segment_entered'
  | 'first_gift'
  | 'gift_over'
  | 'recurring_started'
  | 'recurring_failed'
  | 'recurring_ended'
  | 'first_gift_anniversary'
  | 'date_field';

export type Trigger =
  | { kind: 'form_signup'; form_id: number }
  | { kind: 'origin_code_signup'; origin_code: string }
  | { kind: 'list_added'; list_id: number }
  | { kind: 'segment_entered'; segment_id: number }
  | { kind: 'gift_over'; amount_cents: number }
  | { kind: 'date_field'; field: string }
  | { kind: 'first_gift' | 'recurring_started' | 'recurring_failed' | 'recurring_ended' | 'first_gift_anniversary' };

export type Reentry = { kind: 'never' } | { kind: 'after_days'; days: number };

export type Condition =
  | { kind: 'opened' | 'clicked' | 'gave' }
  | { kind: 'gave_at_least'; amount_cents: number }
  | { kind: 'in_segment'; segment_id: number };

interface StepBase {
  id: string;
  x?: number;
  y?: number;
}

/** The step that follows, or null: the contact finishes the journey there. */
type Next = string | null;

/** A send step's variant B, C …: its own subject, its own body, or both (a missing one is the step's). */
export interface SendVariant {
  subject?: string;
  body_html?: string;
}

/** An e-mail: a template's body (`template_id`) or the step's own (`body_html`, with `template_id` null). */
export type SendStep = StepBase & {
  kind: 'send';
  template_id: number | null;
  subject: string;
  body_html?: string;
  variants?: SendVariant[];
  on_cap: 'wait' | 'skip';
  next: Next;
};
export type WaitStep = StepBase & { kind: 'wait'; hours: number; next: Next };
/** weekday 0 = Monday … 6 = Sunday, hour 0..23 in the client's time zone. */
export type WaitUntilStep = StepBase & { kind: 'wait_until'; weekday: number; hour: number; next: Next };
export type WaitDateStep = StepBase & { kind: 'wait_date'; date: string; next: Next };
export type BranchStep = StepBase & { kind: 'branch'; condition: Condition; yes: Next; no: Next };
export type SplitStep = StepBase & { kind: 'split'; percent: number; a: Next; b: Next };
export type ListStep = StepBase & { kind: 'add_to_list' | 'remove_from_list'; list_id: number; next: Next };
export type OriginCodeStep = StepBase & { kind: 'set_origin_code'; origin_code: string; next: Next };
export type EndStep = StepBase & { kind: 'end' };

export type Step =
  | SendStep
  | WaitStep
  | WaitUntilStep
  | WaitDateStep
  | BranchStep
  | SplitStep
  | ListStep
  | OriginCodeStep
  | EndStep;

export type StepKind = Step['kind'];

export interface JourneyDefinition {
  triggers: Trigger[];
  reentry: Reentry;
  /** Ask series: a contact who gives leaves the journey. */
  exit_on_gift: boolean;
  /** The first step's id ("" while there is none). */
  start: string;
  steps: Step[];
}
