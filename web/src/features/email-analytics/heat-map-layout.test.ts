import { describe, expect, it } from 'vitest';
import { heatMapOption } from './utils';

describe('the click-rate heat map', () => {
  it("keeps its colour scale clear of the hour axis and the axis's name", () => {
    const option = heatMapOption([]) as { grid: { bottom: number }; xAxis: { nameLocation: string; nameGap: number } };
    expect(option.xAxis.nameLocation).toBe('middle');
    // Hour labels and the axis name take nameGap + about 20 px under the plot; the scale is 40 px high at the bottom.
    expect(option.grid.bottom).toBeGreaterThanOrEqual(option.xAxis.nameGap + 20 + 40);
  });
});
