import { describe, expect, it } from 'vitest';
import type { ContributionSummary } from '@/api/gen/model';
import { formatMoney } from '@/lib/money';
import { acquisitionOption, dailyRevenueOption, queryString, summaryTiles } from './utils';

const SUMMARY: ContributionSummary = {
  from: '2026-03-01',
  to: '2026-03-31',
  gross: '197.50',
  refunds: '120.00',
  net: '77.50',
  fees: '7.60',
  gifts: 6,
  refundedGifts: 1,
  donors: 4,
  newDonors: 3,
  averageGift: '32.92',
  medianGift: '17.50',
  recurringGross: '25.00',
  recurringShare: 25 / 197.5,
};

describe('revenue figures', () => {
  it('shows every total of the summary, money with its currency', () => {
    const tiles = Object.fromEntries(summaryTiles(SUMMARY).map((t) => [t.label, t.value]));
    expect(tiles).toEqual({
      Gross: formatMoney('197.50'),
      Refunds: formatMoney('120.00'),
      Net: formatMoney('77.50'),
      Fees: formatMoney('7.60'),
      Gifts: '6',
      Donors: '4',
      'New donors': '3',
      'Average gift': formatMoney('32.92'),
      'Median gift': formatMoney('17.50'),
      'Recurring share': (0.127).toLocaleString(undefined, { style: 'percent', minimumFractionDigits: 1 }),
    });
    expect(tiles.Gross).toContain('197.50');
  });

  it('plots daily net as bars with the previous period as a line', () => {
    const option = dailyRevenueOption([
      { date: '2026-03-01', gross: '5.00', net: '5.00', gifts: 1, previousDate: '2026-01-29', previousNet: '0.00', previousGifts: 0 },
      { date: '2026-03-02', gross: '10.00', net: '-12.50', gifts: 1, previousDate: '2026-01-30', previousNet: '3.00', previousGifts: 1 },
    ]) as { series: { name: string; type: string; data: number[] }[] };
    expect(option.series.map((s) => [s.name, s.type, s.data])).toEqual([
      ['Net', 'bar', [5, -12.5]],
      ['Previous period', 'line', [0, 3]],
    ]);
  });

  it('stacks weekly acquisitions per origin code, with zero for weeks a code had none', () => {
    const option = acquisitionOption([
      { week: '2026-03-09', originCodeId: 1, originCodeName: 'web', contacts: 2 },
      { week: '2026-02-23', originCodeId: 1, originCodeName: 'web', contacts: 1 },
      { week: '2026-03-09', originCodeId: 2, originCodeName: 'ads', contacts: 5 },
    ]) as { series: { name: string; data: number[] }[] };
    expect(option.series.map((s) => [s.name, s.data])).toEqual([
      ['web', [1, 2]],
      ['ads', [0, 5]],
    ]);
  });

  it('leaves unset filters out of export addresses', () => {
    expect(queryString({ from: '2026-03-01', to: '2026-03-31', sourceCodeId: 4, refunded: undefined, q: '' })).toBe(
      'from=2026-03-01&to=2026-03-31&sourceCodeId=4',
    );
    expect(queryString({ refunded: false })).toBe('refunded=false');
  });
});
