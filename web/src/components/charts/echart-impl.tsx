import EChartsReactCore from 'echarts-for-react/esm/core';
import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartProps } from './echart';
import { useTheme } from '@/lib/theme';
import { clearLegend } from './layout';

// Only what the analytics pages draw is bundled (echarts/core plus these parts).
echarts.use([
  LineChart,
  BarChart,
  HeatmapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  VisualMapComponent,
  MarkLineComponent,
  SVGRenderer,
]);

/** An ECharts chart following the app's light or dark theme. */
export default function EChartImpl({ option, label, height = 300 }: EChartProps) {
  const theme = useTheme();
  return (
    <div role="img" aria-label={label}>
      <EChartsReactCore
        echarts={echarts}
        option={{ backgroundColor: 'transparent', ...clearLegend(option) }}
        theme={theme === 'dark' ? 'dark' : undefined}
        // A new theme needs a new instance: the key remounts the chart.
        key={theme}
        notMerge
        style={{ height, width: '100%' }}
        opts={{ renderer: 'svg' }}
      />
    </div>
  );
}
