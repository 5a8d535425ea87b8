import { describe, expect, it } from 'vitest';
import { isValidRange, presets, rangeFromParams, thisMonth } from './date-range';

describe('date ranges', () => {
  it('defaults to the first of this month up to today, in local dates', () => {
    expect(thisMonth(new Date(2026, 2, 15, 23, 59))).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(thisMonth(new Date(2026, 0, 1, 0, 1))).toEqual({ from: '2026-01-01', to: '2026-01-01' });
  });

  it('offers presets that cross year ends', () => {
    const all = Object.fromEntries(presets(new Date(2026, 0, 10)).map((p) => [p.label, p.range]));
    expect(all['Last month']).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(all['Last 30 days']).toEqual({ from: '2025-12-12', to: '2026-01-10' });
    expect(all['This year']).toEqual({ from: '2026-01-01', to: '2026-01-10' });
  });

  it('accepts a range only when its start is not after its end', () => {
    expect(isValidRange({ from: '2026-03-01', to: '2026-03-01' })).toBe(true);
    expect(isValidRange({ from: '2026-03-02', to: '2026-03-01' })).toBe(false);
    expect(isValidRange({ from: '', to: '2026-03-01' })).toBe(false);
  });

  it('reads the range from the address, else this month', () => {
    const today = new Date(2026, 4, 20);
    expect(rangeFromParams(new URLSearchParams('from=2026-01-01&to=2026-02-01'), today)).toEqual({
      from: '2026-01-01',
      to: '2026-02-01',
    });
    expect(rangeFromParams(new URLSearchParams('from=2026-03-01&to=2026-01-01'), today)).toEqual({
      from: '2026-05-01',
      to: '2026-05-20',
    });
  });
});
