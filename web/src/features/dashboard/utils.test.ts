import { describe, expect, it } from 'vitest';
import { periodLink, signed } from './utils';

describe('dashboard helpers', () => {
  it('sign a change', () => {
    expect(signed(12)).toBe('+12');
    expect(signed(-3)).toBe('−3');
    expect(signed(0)).toBe('0');
  });
  it('link a period to the contributions page', () => {
    expect(periodLink({ from: '2026-01-01', to: '2026-01-31' })).toBe(
      '/revenue/contributions?from=2026-01-01&to=2026-01-31',
    );
  });
});
