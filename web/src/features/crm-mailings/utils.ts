import type { Mailing } from '@/api/gen/model';

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

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO date-time as the local `YYYY-MM-DDTHH:mm` of a datetime-local input ("" when not a date). */
export function toDateTimeLocal(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) as an ISO string; null when empty or invalid. */
export function fromDateTimeLocal(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export const MERGE_TAGS = ['First.Name', 'Email'];
