/** Counts and dates in the browser's locale (spec section 9). */

/** A date (ISO) in the browser's locale; the text as given when it is not a date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString();
}

/** A date and time (ISO) in the browser's locale. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A number in the browser's locale (1234 → "1,234" in en-US). */
export const formatCount = (count: number): string => count.toLocaleString();
