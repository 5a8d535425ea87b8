/**
 * The shapes the journeys API answers with (issue 31's contract), for the screens' own components; the pages pass
 * the generated client's answers, which have these fields.
 */

export interface JourneyRow {
  id: number;
  name: string;
  status: string;
  version: number;
  entered: number;
  active: number;
  finished: number;
  converted: number;
  revenue_cents: number;
}

export interface StepFigures {
  step_id: string;
  reached: number;
  sent: number;
  human_opens: number;
  clicks: number;
  unsubscribes: number;
  gifts: number;
  revenue_cents: number;
  rpm_cents: number;
}

export interface WeekFigures {
  week_start: string;
  entered: number;
  converted: number;
}

export interface JourneyFiguresData {
  steps: StepFigures[];
  weeks: WeekFigures[];
  entered: number;
  active: number;
  finished: number;
  converted: number;
  revenue_cents: number;
}

export interface ContactJourney {
  journey_id: number;
  name: string;
  version: number;
  step_id: string;
  state: string;
  entered_at: string;
  due_at?: string | null;
  exit_reason?: string | null;
}

export interface Limits {
  per_day?: number | null;
  per_week?: number | null;
  quiet_start_hour?: number | null;
  quiet_end_hour?: number | null;
}
