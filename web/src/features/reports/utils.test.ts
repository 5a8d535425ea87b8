import { describe, expect, it } from 'vitest';
import { dispositionName } from '@/lib/download';
import { formatCell } from './utils';

describe('report cells', () => {
  it('format by column kind', () => {
    expect(formatCell('money', '25000.00')).toBe('$25,000.00');
    expect(formatCell('rate', '0.3333')).toBe('33.33%');
    expect(formatCell('ratio', '1.4')).toBe('1.40');
    expect(formatCell('integer', '1234')).toBe((1234).toLocaleString());
    expect(formatCell('text', '=cmd')).toBe('=cmd');
    expect(formatCell('money', '')).toBe('');
  });

  it('take the file name from the answer', () => {
    expect(dispositionName('attachment; filename="lybunt-2026-01-01-2026-01-31.csv"', 'x')).toBe(
      'lybunt-2026-01-01-2026-01-31.csv',
    );
    expect(dispositionName(null, 'report')).toBe('report');
  });
});
