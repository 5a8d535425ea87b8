import { lazy, Suspense } from 'react';
import type { EChartsCoreOption } from 'echarts/core';
import { PageSpinner } from '@/components/page-spinner';

export interface EChartProps {
  option: EChartsCoreOption;
  /** What the chart shows, for screen readers. */
  label: string;
  height?: number;
}

// ECharts is large: it loads with the first chart drawn, not with the pages that hold one.
const EChartImpl = lazy(() => import('./echart-impl'));

/** An ECharts chart following the app's light or dark theme. */
export function EChart(props: EChartProps) {
  return (
    <Suspense fallback={<PageSpinner label="Loading the chart" />}>
      <EChartImpl {...props} />
    </Suspense>
  );
}
