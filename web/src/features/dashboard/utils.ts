import type { DashboardPeriod } from '@/api/gen/model';

export const PERIOD_LABELS: Record<string, string> = {
  today: 'Revenue today',
  month: 'Month to date',
  quarter: 'Quarter to date',
  year: 'Year to date',
};

/** The contributions page over a period's dates. */
export const periodLink = (p: Pick<DashboardPeriod, 'from' | 'to'>): string =>
  `/revenue/contributions?from=${p.from}&to=${p.to}`;

/** "+12" / "−3" / "0" for a change in a count. */
export function signed(n: number): string {
  if (n > 0) return `+${n.toLocaleString()}`;
  if (n < 0) return `−${Math.abs(n).toLocaleString()}`;
  return '0';
}
