import { formatZonedDate, formatZonedDateTime } from './time-zone';

/** Counts in the browser's locale (spec section 9); dates and times in the client's zone (`./time-zone`). */

/** A date (ISO) in the client's zone; the text as given when it is not a date. */
export const formatDate = (iso: string): string => formatZonedDate(iso);

/** A date and time (ISO) in the client's zone. */
export const formatDateTime = (iso: string): string => formatZonedDateTime(iso);

/** A number in the browser's locale (1234 → "1,234" in en-US). */
export const formatCount = (count: number): string => count.toLocaleString();

/** A p-value with four significant digits; below 0.0001 "p < 0.0001" (never "p = 0.0000"). */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return 'p = —';
  if (p < 0.0001) return 'p < 0.0001';
  return `p = ${p.toPrecision(4)}`;
}
