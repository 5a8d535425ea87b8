import type { EChartsCoreOption } from 'echarts/core';
import type { MediaDay, MediaRow } from '@/api/gen/model';
import { formatIsoDate } from '@/lib/date-range';
import { chartNumber, formatMoney, formatPercent } from '@/lib/money';

/** A ratio such as ROAS ("1.40") as "1.40×"; none when the API has none (a zero divisor). */
export const formatRoas = (v: string | null | undefined): string => (v === null || v === undefined ? '—' : `${v}×`);

/** CTR arrives as a fraction ("0.0100"). */
export const formatCtr = (v: string | null | undefined): string =>
  v === null || v === undefined ? '—' : formatPercent(Number(v), 2);

export const formatRatioMoney = (v: string | null | undefined): string => (v === null || v === undefined ? '—' : formatMoney(v));

/** The totals tiles of the media page. */
export function mediaTiles(total: MediaRow) {
  return [
    { label: 'Spend', value: formatMoney(total.spend) },
    { label: 'CPM', value: formatRatioMoney(total.cpm) },
    { label: 'CTR', value: formatCtr(total.ctr) },
    { label: 'CPL', value: formatRatioMoney(total.cpl), hint: `${total.newContacts.toLocaleString()} new contacts` },
    {
      label: 'Cost per donor',
      value: formatRatioMoney(total.costPerDonor),
      hint: `${total.newDonors.toLocaleString()} new donors`,
    },
    { label: 'ROAS 30 days', value: formatRoas(total.roas30), hint: `${formatMoney(total.revenue30)} revenue` },
  ];
}

/** Spend as bars and direct ad revenue as a line, per day. */
export function spendRevenueOption(days: MediaDay[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['Spend', 'Revenue'] },
    grid: { left: 60, right: 20, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: days.map((d) => formatIsoDate(d.day)) },
    yAxis: { type: 'value' },
    series: [
      { name: 'Spend', type: 'bar', data: days.map((d) => chartNumber(d.spend)) },
      { name: 'Revenue', type: 'line', smooth: true, data: days.map((d) => chartNumber(d.revenue)) },
    ],
  };
}
