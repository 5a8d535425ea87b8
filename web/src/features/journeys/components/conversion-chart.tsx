import type { EChartsCoreOption } from 'echarts/core';
import { EChart } from '@/components/charts/echart';
import { formatDate } from '@/lib/format';
import type { JourneyWeek } from '@/api/gen/model';

/** Conversion of the journey over time: per week of entry, contacts who entered, converted, and the rate. */
export function ConversionChart({ weeks }: { weeks: JourneyWeek[] }) {
  const option: EChartsCoreOption = {
    tooltip: { trigger: 'axis' },
    legend: { data: ['Entered', 'Converted', 'Conversion %'] },
    grid: { left: 48, right: 48, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: weeks.map((w) => formatDate(w.week_start)) },
    yAxis: [
      { type: 'value', name: 'Contacts', minInterval: 1 },
      { type: 'value', name: '%', max: 100, min: 0 },
    ],
    series: [
      { name: 'Entered', type: 'bar', data: weeks.map((w) => w.entered) },
      { name: 'Converted', type: 'bar', data: weeks.map((w) => w.converted) },
      {
        name: 'Conversion %',
        type: 'line',
        yAxisIndex: 1,
        data: weeks.map((w) => (w.entered > 0 ? Math.round((1000 * w.converted) / w.entered) / 10 : 0)),
      },
    ],
  };
  return <EChart option={option} label="Conversion of the journey by week of entry" height={280} />;
}
