import { describe, expect, it } from 'vitest';
import { formatMoney, formatPercent } from './money';

describe('formatMoney', () => {
  it('formats the decimal string itself, in dollars, with no float rounding', () => {
    expect(formatMoney('1234.50')).toBe((1234.5).toLocaleString(undefined, { style: 'currency', currency: 'USD' }));
    // 2^53 + 0.01 cannot be held by a double: formatting the string keeps the cent.
    expect(formatMoney('9007199254740993.01')).toMatch(/9.007.199.254.740.993.01/);
    expect(formatMoney('-20.00')).toContain('20.00');
  });

  it('shows a dash for a missing amount', () => {
    expect(formatMoney(null)).toBe('—');
    expect(formatMoney(undefined)).toBe('—');
    expect(formatMoney('')).toBe('—');
  });
});

describe('formatPercent', () => {
  it('shows a share as a percentage', () => {
    expect(formatPercent(0.126582)).toBe((0.127).toLocaleString(undefined, { style: 'percent', minimumFractionDigits: 1 }));
    expect(formatPercent(0.5, 2)).toBe((0.5).toLocaleString(undefined, { style: 'percent', minimumFractionDigits: 2 }));
  });
});
