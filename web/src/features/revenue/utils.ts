import type { EChartsCoreOption } from 'echarts/core';
import type { AcquisitionWeek, ContributionSummary, RevenueDay } from '@/api/gen/model';
import type { StatTile } from '@/components/stat-tiles';
import { formatIsoDate } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { chartNumber, formatMoney, formatPercent } from '@/lib/money';

/** The totals of the Contributions page, in the order docs/metrics.md defines them. */
export function summaryTiles(s: ContributionSummary): StatTile[] {
  return [
    { label: 'Gross', value: formatMoney(s.gross) },
    { label: 'Refunds', value: formatMoney(s.refunds), hint: `${formatCount(s.refundedGifts)} refunded` },
    { label: 'Net', value: formatMoney(s.net) },
    { label: 'Fees', value: formatMoney(s.fees) },
    { label: 'Gifts', value: formatCount(s.gifts) },
    { label: 'Donors', value: formatCount(s.donors) },
    { label: 'New donors', value: formatCount(s.newDonors) },
    { label: 'Average gift', value: formatMoney(s.averageGift) },
    { label: 'Median gift', value: formatMoney(s.medianGift) },
    { label: 'Recurring share', value: formatPercent(s.recurringShare), hint: formatMoney(s.recurringGross) },
  ];
}

/** Daily net of the range as bars with the previous period's net as a line over the same days. */
export function dailyRevenueOption(days: RevenueDay[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['Net', 'Previous period'] },
    grid: { left: 60, right: 20, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: days.map((d) => formatIsoDate(d.date)) },
    yAxis: { type: 'value' },
    series: [
      { name: 'Net', type: 'bar', data: days.map((d) => chartNumber(d.net)) },
      { name: 'Previous period', type: 'line', smooth: true, data: days.map((d) => chartNumber(d.previousNet)) },
    ],
  };
}

/** Weekly acquisitions, one stacked bar series per origin code. */
export function acquisitionOption(weeks: AcquisitionWeek[]): EChartsCoreOption {
  const labels = [...new Set(weeks.map((w) => w.week))].sort();
  const codes = [...new Set(weeks.map((w) => w.originCodeName))];
  const count = new Map(weeks.map((w) => [`${w.week}|${w.originCodeName}`, w.contacts]));
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: codes, type: 'scroll' },
    grid: { left: 50, right: 20, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: labels.map(formatIsoDate) },
    yAxis: { type: 'value', minInterval: 1 },
    series: codes.map((code) => ({
      name: code,
      type: 'bar',
      stack: 'contacts',
      data: labels.map((week) => count.get(`${week}|${code}`) ?? 0),
    })),
  };
}

/** Query parameters without the unset ones, as the export links send them. */
export function queryString(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return search.toString();
}
