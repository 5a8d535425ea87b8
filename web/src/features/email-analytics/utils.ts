import type { EChartsCoreOption } from 'echarts/core';
import type { EmailCell, EmailPeriod } from '@/api/gen/model';
import type { StatTile } from '@/components/stat-tiles';
import { formatIsoDate } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { chartNumber, formatMoney, formatPercent } from '@/lib/money';

/** A rate from the API ("0.2500", or null when its denominator is 0) as a percentage, or a dash. */
export const formatRate = (rate: string | null | undefined): string =>
  rate === null || rate === undefined ? '—' : formatPercent(Number(rate));

/** The range's totals, in the order docs/metrics.md defines them. */
export function totalTiles(t: EmailPeriod): StatTile[] {
  return [
    { label: 'Subscribed', value: formatCount(t.subscribed), hint: 'at the end of the range' },
    { label: 'New subscribers', value: formatCount(t.newSubscribers) },
    { label: 'Unsubscribes', value: formatCount(t.unsubscribes) },
    { label: 'Bounces', value: formatCount(t.bounces) },
    { label: 'Active rate', value: formatRate(t.activeRate), hint: `${formatCount(t.active)} active in 90 days` },
    { label: 'Delivery rate', value: formatRate(t.deliveryRate), hint: `${formatCount(t.delivered)} of ${formatCount(t.sent)}` },
    { label: 'Bounce rate', value: formatRate(t.bounceRate) },
    { label: 'Open rate', value: formatRate(t.openRate), hint: `${formatCount(t.opened)} human openers` },
    { label: 'Click rate', value: formatRate(t.clickRate), hint: `${formatCount(t.clicked)} human clickers` },
    { label: 'Revenue', value: formatMoney(t.revenue) },
    { label: 'RPM', value: formatMoney(t.rpm), hint: 'per 1,000 delivered' },
  ];
}

const label = (p: EmailPeriod) => formatIsoDate(p.start);

/** List size as a line; new subscribers, unsubscribes and bounces as bars. */
export function listOption(periods: EmailPeriod[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['Subscribed', 'New subscribers', 'Unsubscribes', 'Bounces'] },
    grid: { left: 60, right: 60, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: periods.map(label) },
    yAxis: [{ type: 'value', name: 'Subscribed' }, { type: 'value', name: 'Changes' }],
    series: [
      { name: 'Subscribed', type: 'line', data: periods.map((p) => p.subscribed) },
      { name: 'New subscribers', type: 'bar', yAxisIndex: 1, data: periods.map((p) => p.newSubscribers) },
      { name: 'Unsubscribes', type: 'bar', yAxisIndex: 1, data: periods.map((p) => p.unsubscribes) },
      { name: 'Bounces', type: 'bar', yAxisIndex: 1, data: periods.map((p) => p.bounces) },
    ],
  };
}

const rateNumber = (r: string | null | undefined) => (r === null || r === undefined ? null : Number(r) * 100);

/** Active, delivery, bounce, open and click rates in percent. */
export function ratesOption(periods: EmailPeriod[]): EChartsCoreOption {
  const rates: [string, (p: EmailPeriod) => string | null | undefined][] = [
    ['Active rate', (p) => p.activeRate],
    ['Delivery rate', (p) => p.deliveryRate],
    ['Bounce rate', (p) => p.bounceRate],
    ['Open rate', (p) => p.openRate],
    ['Click rate', (p) => p.clickRate],
  ];
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: rates.map(([name]) => name) },
    grid: { left: 60, right: 20, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: periods.map(label) },
    yAxis: { type: 'value', name: '%' },
    series: rates.map(([name, get]) => ({ name, type: 'line', data: periods.map((p) => rateNumber(get(p))) })),
  };
}

/** Revenue from e-mail as bars and RPM as a line. */
export function revenueOption(periods: EmailPeriod[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['Revenue', 'RPM'] },
    grid: { left: 70, right: 70, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: periods.map(label) },
    yAxis: [{ type: 'value', name: 'Revenue' }, { type: 'value', name: 'RPM' }],
    series: [
      { name: 'Revenue', type: 'bar', data: periods.map((p) => chartNumber(p.revenue)) },
      { name: 'RPM', type: 'line', yAxisIndex: 1, data: periods.map((p) => (p.rpm ? chartNumber(p.rpm) : null)) },
    ],
  };
}

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Heat map cells [hour, weekday index, click rate %] for every cell with deliveries. */
export function heatCells(cells: EmailCell[]): [number, number, number][] {
  return cells
    .filter((c) => c.clickRate !== null && c.clickRate !== undefined)
    .map((c) => [c.sendHour, c.weekday - 1, Math.round(Number(c.clickRate) * 10000) / 100]);
}

/** Click rate by send hour (x) and weekday (y). */
export function heatMapOption(cells: EmailCell[]): EChartsCoreOption {
  const data = heatCells(cells);
  const max = Math.max(1, ...data.map((d) => d[2]));
  return {
    tooltip: { position: 'top' },
    // Under the plot: hour labels, the axis name under them, then the colour scale in a row of its own.
    grid: { left: 60, right: 20, top: 20, bottom: 95 },
    xAxis: {
      type: 'category',
      name: 'Send hour',
      nameLocation: 'middle',
      nameGap: 28,
      data: Array.from({ length: 24 }, (_, h) => String(h)),
      splitArea: { show: true },
    },
    yAxis: { type: 'category', data: WEEKDAYS, splitArea: { show: true } },
    visualMap: { min: 0, max, calculable: true, orient: 'horizontal', left: 'center', bottom: 0, itemHeight: 160, text: ['Click rate %', ''] },
    series: [{ name: 'Click rate %', type: 'heatmap', data, label: { show: true } }],
  };
}
