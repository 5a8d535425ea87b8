import type { DashboardPeriod } from '@/api/gen/model';
import { formatMoney, formatPercent } from '@/lib/money';

export const PERIOD_LABELS: Record<string, string> = {
  today: 'Revenue today',
  month: 'Month to date',
  quarter: 'Quarter to date',
  year: 'Year to date',
};

/** The contributions page over a period's dates. */
export const periodLink = (p: Pick<DashboardPeriod, 'from' | 'to'>): string =>
  `/revenue/contributions?from=${p.from}&to=${p.to}`;

/** The source codes page over a period's dates. */
export const sourceCodesLink = (p: Pick<DashboardPeriod, 'from' | 'to'>): string => `/revenue?from=${p.from}&to=${p.to}`;

/** A mailing's page (the spec's `crm-mailing-detail`). */
export const mailingLink = (id: number): string => `/crm-mailing-detail/${id}`;

/** "+12" / "−3" / "0" for a change in a count. */
export function signed(n: number): string {
  if (n > 0) return `+${n.toLocaleString()}`;
  if (n < 0) return `−${Math.abs(n).toLocaleString()}`;
  return '0';
}

/**
 * The pacing hint: which period, and how far ahead or behind the projection, in money and as a share of it.
 * Amounts are exact decimal strings; the difference is taken in whole cents.
 */
export function pacingHint(actual: string, projected: string, period = 'Year to date'): string {
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  const diff = cents(actual) - cents(projected);
  const amount = formatMoney((Math.abs(diff) / 100).toFixed(2));
  const base = cents(projected);
  const share = base > 0 ? ` (${formatPercent(Math.abs(diff) / base, 2)})` : '';
  const where = diff === 0 ? 'on projection' : `${amount}${share} ${diff > 0 ? 'ahead of' : 'behind'} projection`;
  return `${period}: ${formatMoney(actual)} of ${formatMoney(projected)} projected — ${where}`;
}
