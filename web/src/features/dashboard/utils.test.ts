import { describe, expect, it } from 'vitest';
import { mailingLink, pacingHint, periodLink, signed, sourceCodesLink } from './utils';

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
  it('say the pacing period and how far behind or ahead', () => {
    expect(pacingHint('9884763.00', '9887617.28')).toBe(
      'Year to date: $9,884,763.00 of $9,887,617.28 projected — $2,854.28 (0.03%) behind projection',
    );
    expect(pacingHint('1100.00', '1000.00', 'Month to date')).toBe(
      'Month to date: $1,100.00 of $1,000.00 projected — $100.00 (10.00%) ahead of projection',
    );
    expect(pacingHint('5.00', '5.00')).toBe('Year to date: $5.00 of $5.00 projected — on projection');
  });
  it('link mailings to their detail route and codes to their period', () => {
    expect(mailingLink(7)).toBe('/crm-mailing-detail/7');
    expect(sourceCodesLink({ from: '2026-01-01', to: '2026-01-31' })).toBe('/revenue?from=2026-01-01&to=2026-01-31');
  });
});
