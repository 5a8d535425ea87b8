import type { PortfolioClient, PortfolioFigures } from '@/api/gen/model';
import { formatPercent } from '@/lib/money';

export interface PortfolioSort {
  id: string;
  desc: boolean;
}

/** The value a column sorts by; null sorts last whichever the direction. */
const SORT_VALUES: Record<string, (f: PortfolioFigures) => number | null | undefined> = {
  monthNet: (f) => Number(f.monthNet),
  monthPacing: (f) => f.monthPacing,
  yearNet: (f) => Number(f.yearNet),
  yearPacing: (f) => f.yearPacing,
  newDonors: (f) => f.newDonors,
  retention: (f) => f.retention,
  sustainers: (f) => f.sustainers,
  listSize: (f) => f.listSize,
  listChange30: (f) => f.listChange30,
  rpm: (f) => amount(f.rpm),
  bounceRate: (f) => f.bounceRate,
  complaintRate: (f) => f.complaintRate,
  jobsFailing: (f) => f.jobsFailing,
  mailingsPaused: (f) => f.mailingsPaused,
};

/** The columns the portfolio sorts by (besides the client's name). */
export const SORTABLE = ['name', ...Object.keys(SORT_VALUES)];

/** The rows in the order asked for: by name, or by a figure (clients without figures last). */
export function sortClients(rows: readonly PortfolioClient[], sort: PortfolioSort): PortfolioClient[] {
  const sign = sort.desc ? -1 : 1;
  if (sort.id === 'name') return [...rows].sort((a, b) => sign * a.name.localeCompare(b.name));
  const value = SORT_VALUES[sort.id];
  if (!value) return [...rows];
  const of = (r: PortfolioClient) => (r.figures ? (value(r.figures) ?? null) : null);
  return [...rows].sort((a, b) => {
    const [x, y] = [of(a), of(b)];
    if (x === null || y === null) return x === y ? a.name.localeCompare(b.name) : x === null ? 1 : -1;
    return sign * (x - y) || a.name.localeCompare(b.name);
  });
}

/** A share, or a dash when there is nothing to divide by. */
export const share = (v: number | null | undefined, digits = 1): string =>
  v === null || v === undefined ? '—' : formatPercent(v, digits);

/**
 * A client's value against the agency's median: "+12.0%" above, "−3.5%" below, "at median", or a dash when
 * either is missing.
 */
export function versusMedian(value: number | null, median: number | null): string {
  if (value === null || median === null || median === 0) return '—';
  const diff = (value - median) / Math.abs(median);
  if (Math.abs(diff) < 0.0005) return 'at median';
  return `${diff > 0 ? '+' : '−'}${formatPercent(Math.abs(diff))}`;
}

/** A money string as a number, for comparisons only (null stays null). */
export const amount = (v: string | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);

/**
 * How old the figures are, in the viewer's own clock (the portfolio spans clients in several zones): "Figures as
 * of 14:05", with the day in front when it is not today ("Figures as of Nov 25, 14:05").
 */
export function figuresAsOf(iso: string, now: Date = new Date(), timeZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return 'Figures as of —';
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  if (day(at) === day(now)) return `Figures as of ${time}`;
  const date = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric' }).format(at);
  return `Figures as of ${date}, ${time}`;
}
