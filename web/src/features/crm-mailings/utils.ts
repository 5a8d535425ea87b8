import type { Mailing } from '@/api/gen/model';
import { fromZonedInput, toZonedInput } from '@/lib/time-zone';

export type MailingStatus = 'DRAFT' | 'SENT' | 'CONFIRMED';

/** DRAFT when isDraft; otherwise SENT when a send was attempted; otherwise CONFIRMED. */
export function mailingStatus(mailing: Pick<Mailing, 'isDraft' | 'sendAttempt'>): MailingStatus {
  if (mailing.isDraft) return 'DRAFT';
  if (mailing.sendAttempt) return 'SENT';
  return 'CONFIRMED';
}

/** Only drafts and never-attempted mailings can be edited. */
export const isEditable = (mailing: Pick<Mailing, 'isDraft' | 'sendAttempt'>): boolean => mailingStatus(mailing) !== 'SENT';

/** openCount ÷ recipCount with 3 decimals; "0.000" when there are no recipients. */
export function openRate(openCount: number, recipCount: number): string {
  if (!recipCount || recipCount <= 0) return '0.000';
  return (openCount / recipCount).toFixed(3);
}

/** An ISO date-time as the client zone's `YYYY-MM-DDTHH:mm` of a datetime-local input ("" when not a date). */
export const toDateTimeLocal = (iso: string | null | undefined): string => toZonedInput(iso);

/** A datetime-local value (the client zone's wall-clock time) as an ISO string; null when empty or invalid. */
export const fromDateTimeLocal = (value: string): string | null => fromZonedInput(value);

export const MERGE_TAGS = ['First.Name', 'Email'];
