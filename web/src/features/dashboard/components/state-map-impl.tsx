import EChartsReactCore from 'echarts-for-react/esm/core';
import { MapChart } from 'echarts/charts';
import { TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useTheme } from '@/lib/theme';
import usStates from '../us-states.json';
import type { StateMapProps } from './state-map';

echarts.use([MapChart, TooltipComponent, VisualMapComponent, SVGRenderer]);
// Alaska, Hawaii and Puerto Rico drawn beside the lower 48, as US maps usually are.
echarts.registerMap('USA', usStates as never, {
  Alaska: { left: -131, top: 25, width: 15 },
  Hawaii: { left: -110, top: 28, width: 5 },
  'Puerto Rico': { left: -76, top: 26, width: 2 },
});

const NAMES: Record<string, string> = Object.fromEntries(
  (usStates as { features: { properties: { name: string; postal: string } }[] }).features.map((f) => [
    f.properties.postal,
    f.properties.name,
  ]),
);

/** Net revenue by donor state on a US map; the tooltip also names the donors. */
export default function StateMapImpl({ states, height = 320 }: StateMapProps) {
  const theme = useTheme();
  const data = states
    .filter((s) => NAMES[s.state])
    .map((s) => ({ name: NAMES[s.state], value: Number(s.net), donors: s.donors, net: s.net }));
  const max = Math.max(1, ...data.map((d) => d.value));
  const option = {
    backgroundColor: 'transparent',
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; data?: { net: string; donors: number } }) =>
        p.data ? `${p.name}: $${p.data.net} from ${p.data.donors} donors` : `${p.name}: no gifts`,
    },
    visualMap: { min: 0, max, left: 'right', calculable: true, inRange: { color: ['#e0ecf8', '#0d6efd'] } },
    series: [{ type: 'map', map: 'USA', roam: false, data }],
  };
  return (
    <div role="img" aria-label="Revenue by state this month">
      <EChartsReactCore
        echarts={echarts}
        option={option}
        theme={theme === 'dark' ? 'dark' : undefined}
        key={theme}
        notMerge
        style={{ height, width: '100%' }}
        opts={{ renderer: 'svg' }}
      />
    </div>
  );
}
