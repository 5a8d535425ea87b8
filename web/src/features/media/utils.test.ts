import { describe, expect, it } from 'vitest';
import { parseRefcodes } from './components/ad-codes-dialog';
import { formatCtr, formatRoas, spendRevenueOption } from './utils';

describe('media figures as shown', () => {
  it('shows ROAS as a multiple and an empty ratio as a dash', () => {
    expect(formatRoas('1.40')).toBe('1.40×');
    expect(formatRoas(null)).toBe('—');
    expect(formatCtr(null)).toBe('—');
  });

  it('reads refcodes typed with commas, spaces or new lines, once each', () => {
    expect(parseRefcodes('a_1, b_2\nc_3  a_1')).toEqual(['a_1', 'b_2', 'c_3']);
  });

  it('charts spend as bars and revenue as a line', () => {
    const option = spendRevenueOption([{ day: '2026-10-01', spend: '1150.00', revenue: '45.00' }]) as {
      series: { name: string; data: number[] }[];
    };
    expect(option.series.map((s) => [s.name, s.data[0]])).toEqual([
      ['Spend', 1150],
      ['Revenue', 45],
    ]);
  });
});
