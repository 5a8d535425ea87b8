import { describe, expect, it } from 'vitest';
import { clearLegend, LEGEND_ROOM } from './layout';

describe('chart layout', () => {
  it('puts the legend in a row of its own under the plot', () => {
    const option = clearLegend({
      legend: { data: ['Net', 'Previous period'] },
      grid: { left: 60, right: 20, top: 40, bottom: 30 },
      series: [],
    });
    expect(option.legend).toMatchObject({ bottom: 0, type: 'scroll', top: undefined });
    expect(option.grid).toMatchObject({ bottom: 30 + LEGEND_ROOM, containLabel: true });
  });
  it('leaves charts without a legend alone', () => {
    const option = { series: [] };
    expect(clearLegend(option)).toBe(option);
  });
});
