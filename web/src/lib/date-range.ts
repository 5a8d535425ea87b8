import { clientToday } from './time-zone';

/** Date ranges as the revenue API takes them: two ISO dates (YYYY-MM-DD), both included. */
export interface DateRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A local date as YYYY-MM-DD (never through UTC, which would move it a day near midnight). */
export const isoDate = (date: Date): string => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The first of this month up to today (the client's today unless given). */
export function thisMonth(today: Date = clientToday()): DateRange {
  return { from: isoDate(new Date(today.getFullYear(), today.getMonth(), 1)), to: isoDate(today) };
}

/** Presets the picker offers. */
export function presets(today: Date = clientToday()): { label: string; range: DateRange }[] {
  const y = today.getFullYear();
  const m = today.getMonth();
  const daysAgo = (n: number) => isoDate(new Date(y, m, today.getDate() - n));
  return [
    { label: 'This month', range: thisMonth(today) },
    { label: 'Last month', range: { from: isoDate(new Date(y, m - 1, 1)), to: isoDate(new Date(y, m, 0)) } },
    { label: 'Last 30 days', range: { from: daysAgo(29), to: isoDate(today) } },
    { label: 'Last 90 days', range: { from: daysAgo(89), to: isoDate(today) } },
    { label: 'This year', range: { from: `${y}-01-01`, to: isoDate(today) } },
    { label: 'Last 365 days', range: { from: daysAgo(364), to: isoDate(today) } },
  ];
}

/** A valid range has two dates with the start not after the end. */
export const isValidRange = (r: DateRange): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(r.from) && /^\d{4}-\d{2}-\d{2}$/.test(r.to) && r.from <= r.to;

/** An ISO date (YYYY-MM-DD) in the browser's locale, without a time zone shift. */
export function formatIsoDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d) return iso;
  return new Date(y, m - 1, d).toLocaleDateString();
}

/** Reads a range from the address (`from`, `to`), else this month. */
export function rangeFromParams(params: URLSearchParams, today: Date = clientToday()): DateRange {
  const range = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  return isValidRange(range) ? range : thisMonth(today);
}
