import type { EChartsCoreOption } from 'echarts/core';
import type { RetentionCell, RetentionLine, SourceCurve, SustainerMonthView } from '@/api/gen/model';
import { chartNumber, formatPercent } from '@/lib/money';

export const PERIODS = [
  { id: 'year', label: 'Year' },
  { id: 'fiscal_year', label: 'Fiscal year' },
  { id: 'quarter', label: 'Quarter' },
  { id: 'month', label: 'Month' },
] as const;

export const SOURCES = [
  { id: 'all', label: 'All donors' },
  { id: 'origin', label: 'Origin code' },
  { id: 'channel', label: 'Source code channel' },
  { id: 'campaign', label: 'Source code campaign' },
  { id: 'form', label: 'Form' },
] as const;

export const CATEGORY_LABELS: Record<string, string> = {
  new: 'New',
  recaptured: 'Recaptured',
  upgraded: 'Upgraded',
  same: 'Same',
  downgraded: 'Downgraded',
  lost: 'Lost',
};

/** A rate the API sends as a fraction string ("0.6000") as a percentage; a missing one is a dash. */
export function rate(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return formatPercent(Number(value));
}

/** "2026-03-01" → "Mar 2026"; quarter cohorts → "Q1 2026". */
export function cohortLabel(iso: string, grain: string): string {
  const [y, m] = iso.split('-').map(Number);
  if (grain === 'quarter') return `Q${Math.floor((m - 1) / 3) + 1} ${y}`;
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A heat-map cell's background: the share's strength on the theme's primary colour. */
export function heat(share: string | null | undefined): string | undefined {
  if (share === null || share === undefined) return undefined;
  const alpha = Math.min(1, Math.max(0, Number(share))) * 0.85 + 0.05;
  return `rgba(var(--bs-primary-rgb), ${alpha.toFixed(2)})`;
}

/** What a cell of the page is, as the donors dialog shows it. */
export function cellTitle(cell: RetentionCell): string {
  switch (cell.kind) {
    case 'retention':
      return `${CATEGORY_LABELS[cell.category ?? ''] ?? cell.category} donors`;
    case 'cohort': {
      const parts = [cell.source ?? ''];
      if (cell.cohort) parts.push(`cohort ${cohortLabel(cell.cohort, cell.grain ?? 'month')}`);
      if (cell.age !== null && cell.age !== undefined) parts.push(`giving at month ${cell.age}`);
      return parts.join(', ');
    }
    default:
      return `Sustainers ${cell.status ?? ''} in ${cohortLabel(cell.month ?? '', 'month')}`;
  }
}

/** The gain/loss waterfall: previous total, each line's change, current total (a floating bar per step). */
export function waterfallOption(previous: string, lines: RetentionLine[], current: string): EChartsCoreOption {
  const labels = ['Previous', ...lines.map((l) => CATEGORY_LABELS[l.category] ?? l.category), 'Current'];
  const base: number[] = [0];
  const bars: number[] = [chartNumber(previous)];
  let level = chartNumber(previous);
  for (const l of lines) {
    const change = chartNumber(l.change);
    const next = level + change;
    base.push(Math.min(level, next));
    bars.push(Math.abs(change));
    level = next;
  }
  base.push(0);
  bars.push(chartNumber(current));
  return {
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: labels },
    yAxis: { type: 'value' },
    series: [
      { type: 'bar', stack: 'w', data: base, itemStyle: { color: 'transparent' }, silent: true },
      { type: 'bar', stack: 'w', name: 'Dollars', data: bars },
    ],
  };
}

/** One line per source: the share of its donors giving at each age (months after the first gift's month). */
export function curvesOption(curves: SourceCurve[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll' },
    xAxis: { type: 'category', name: 'Month of giving', data: curves[0]?.points.map((p) => String(p.age)) ?? [] },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatPercent(v, 0) } },
    series: curves.map((c) => ({ type: 'line', name: c.source, data: c.points.map((p) => Number(p.share)) })),
  };
}

/** Active sustainers, started and ended per month. */
export function sustainersOption(months: SustainerMonthView[]): EChartsCoreOption {
  const x = months.map((m) => cohortLabel(m.month, 'month'));
  return {
    tooltip: { trigger: 'axis' },
    legend: {},
    xAxis: { type: 'category', data: x },
    yAxis: { type: 'value' },
    series: [
      { type: 'line', name: 'Active', data: months.map((m) => m.active) },
      { type: 'bar', name: 'Started', data: months.map((m) => m.started) },
      { type: 'bar', name: 'Ended', data: months.map((m) => -m.ended) },
    ],
  };
}
