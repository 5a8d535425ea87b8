import { describe, expect, it } from 'vitest';
import type { EmailCell } from '@/api/gen/model';
import { defaultRange } from './email-analytics-page';
import { formatRate, heatCells } from './utils';

const cell = (weekday: number, sendHour: number, clickRate: string | null): EmailCell => ({
  weekday,
  sendHour,
  provider: '',
  sent: 4,
  delivered: clickRate === null ? 0 : 3,
  bounced: 0,
  opened: 0,
  clicked: 1,
  unsubscribed: 0,
  deliveryRate: null,
  bounceRate: null,
  openRate: null,
  clickRate,
});

describe('e-mail analytics figures', () => {
  it('shows a rate as a percentage and a missing one as a dash', () => {
    expect(formatRate('0.3333')).toBe((0.3333).toLocaleString(undefined, { style: 'percent', minimumFractionDigits: 1 }));
    expect(formatRate(null)).toBe('—');
  });

  it('places each cell at its hour and weekday (Monday first) and leaves out cells without deliveries', () => {
    expect(heatCells([cell(1, 18, '0.3333'), cell(6, 9, '0.5000'), cell(7, 3, null)])).toEqual([
      [18, 0, 33.33],
      [9, 5, 50],
    ]);
  });

  it('starts on the first of the month five months back', () => {
    expect(defaultRange(new Date(2030, 2, 15))).toEqual({ from: '2029-10-01', to: '2030-03-15' });
  });
});
