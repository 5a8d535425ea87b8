import type { EChartsCoreOption } from 'echarts/core';
import type { InflectionMarker, ProjectionMonth, ProjectionView } from '@/api/gen/model';
import { chartNumber, formatMoney, formatPercent } from '@/lib/money';

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const CHANNELS = [
  { id: 'email', label: 'E-mail' },
  { id: 'ads', label: 'Ads' },
  { id: 'organic', label: 'Organic' },
  { id: 'other', label: 'Other' },
] as const;

const band = (low?: string | null, high?: string | null) =>
  low && high ? `${formatMoney(low)} – ${formatMoney(high)}` : 'No backtest yet';

/** The pacing tiles of the projections page. */
export function projectionTiles(p: ProjectionView) {
  return [
    { label: 'Actual to date', value: formatMoney(p.actualToDate), hint: 'Through yesterday' },
    { label: 'Projection to date', value: formatMoney(p.projectionToDate) },
    { label: 'Pacing', value: p.pacing ? formatPercent(Number(p.pacing)) : '—', hint: 'Actual ÷ projection to date' },
    { label: 'End of month', value: formatMoney(p.endOfMonth.value), hint: band(p.endOfMonth.low, p.endOfMonth.high) },
    {
      label: 'End of quarter',
      value: formatMoney(p.endOfQuarter.value),
      hint: band(p.endOfQuarter.low, p.endOfQuarter.high),
    },
    {
      label: 'Backtest error (MAPE)',
      value: p.forecastMape ? formatPercent(Number(p.forecastMape)) : '—',
      hint: p.projectionMape ? `Monthly projection: ${formatPercent(Number(p.projectionMape))}` : 'Last 12 months',
    },
  ];
}

/** Actual per channel as stacked bars, the projection and the goal as lines, markers as vertical lines. */
export function projectionOption(months: ProjectionMonth[], markers: InflectionMarker[]): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: [...CHANNELS.map((c) => c.label), 'Projection', 'Goal'] },
    grid: { left: 70, right: 20, top: 40, bottom: 30 },
    xAxis: { type: 'category', data: MONTHS },
    yAxis: { type: 'value' },
    series: [
      ...CHANNELS.map((c, i) => ({
        name: c.label,
        type: 'bar',
        stack: 'actual',
        data: months.map((m) => chartNumber(m.actual[c.id])),
        ...(i === 0
          ? {
              markLine: {
                symbol: 'none',
                label: { formatter: '{b}', position: 'insideEndTop' },
                data: markers.map((mk) => ({ name: mk.label, xAxis: MONTHS[Number(mk.date.slice(5, 7)) - 1] })),
              },
            }
          : {}),
      })),
      { name: 'Projection', type: 'line', data: months.map((m) => chartNumber(m.projection.total)) },
      { name: 'Goal', type: 'line', data: months.map((m) => (m.goal ? chartNumber(m.goal) : null)) },
    ],
  };
}
