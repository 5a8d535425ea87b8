import type { EChartsCoreOption } from 'echarts/core';

/** Room under the plot for the legend's row (ECharts draws a legend row about 24 px high). */
export const LEGEND_ROOM = 32;

interface Box {
  bottom?: number | string;
  [key: string]: unknown;
}

/**
 * Puts a chart's legend in its own row under the plot (scrolling when it is wider than the chart) and makes room
 * for it, so it never lies over the axes, their names or labels however narrow the chart; the grid keeps its axis
 * labels inside (`containLabel`).
 */
export function clearLegend(option: EChartsCoreOption): EChartsCoreOption {
  const legend = option.legend as Box | undefined;
  if (!legend || Array.isArray(legend)) return option;
  const grid = (option.grid as Box | undefined) ?? {};
  const below = typeof grid.bottom === 'number' ? grid.bottom : 30;
  return {
    ...option,
    legend: { type: 'scroll', ...legend, top: undefined, bottom: 0 },
    grid: { ...grid, bottom: below + LEGEND_ROOM, containLabel: true },
  };
}
