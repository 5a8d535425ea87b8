import { describe, expect, it } from 'vitest';
import { cellTitle, cohortLabel, rate, waterfallOption } from './utils';

describe('retention utils', () => {
  it('labels cohorts by month or quarter and rates as percentages', () => {
    expect(cohortLabel('2026-03-01', 'month')).toMatch(/Mar.*2026/);
    expect(cohortLabel('2026-04-01', 'quarter')).toBe('Q2 2026');
    expect(rate('0.6000')).toMatch(/60[.,]0/);
    expect(rate(null)).toBe('—');
  });

  it('names the cell a dialog lists', () => {
    expect(cellTitle({ kind: 'retention', category: 'lost' })).toBe('Lost donors');
    expect(cellTitle({ kind: 'cohort', source: 'email', grain: 'quarter', cohort: '2026-01-01', age: 3 })).toBe(
      'email, cohort Q1 2026, giving at month 3',
    );
  });

  it('floats each gain/loss step from the previous total to the current one', () => {
    const lines = [
      { category: 'new', donors: 1, previous: '0.00', current: '35.00', change: '35.00' },
      { category: 'lost', donors: 1, previous: '140.00', current: '0.00', change: '-140.00' },
    ];
    const option = waterfallOption('490.00', lines, '385.00') as {
      xAxis: { data: string[] };
      series: { data: number[] }[];
    };
    expect(option.xAxis.data).toEqual(['Previous', 'New', 'Lost', 'Current']);
    // Invisible bases and visible bars: 490 → +35 (base 490) → −140 (base 385) → 385.
    expect(option.series[0].data).toEqual([0, 490, 385, 0]);
    expect(option.series[1].data).toEqual([490, 35, 140, 385]);
  });
});
