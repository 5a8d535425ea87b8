import { describe, expect, it } from 'vitest';
import type { PortfolioClient, PortfolioFigures } from '@/api/gen/model';
import { figuresAsOf, sortClients, versusMedian } from './utils';

const figures = (monthNet: string, retention: number | null): PortfolioFigures => ({
  today: '2026-11-26',
  monthNet,
  monthGoal: null,
  monthPacing: null,
  yearNet: monthNet,
  yearGoal: null,
  yearPacing: null,
  newDonors: 0,
  retention,
  sustainers: 0,
  listSize: 0,
  listChange30: 0,
  rpm: null,
  responseRate: null,
  bounceRate: null,
  complaintRate: null,
  costPerDonor: null,
  jobsFailing: 0,
  mailingsPaused: 0,
  netByMonth: [],
});

const rows: PortfolioClient[] = [
  { id: 1, name: 'Beta', short: 'b', figures: figures('20.00', 0.4) },
  { id: 2, name: 'Alpha', short: 'a', figures: figures('100.00', null) },
  { id: 3, name: 'Gamma', short: 'g', figures: null },
  { id: 4, name: 'Delta', short: 'd', figures: figures('3.00', 0.5) },
];

describe('sortClients', () => {
  it('sorts by a figure as a number, either way, with clients lacking it last', () => {
    const names = (id: string, desc: boolean) => sortClients(rows, { id, desc }).map((r) => r.name);
    expect(names('monthNet', true)).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
    expect(names('monthNet', false)).toEqual(['Delta', 'Beta', 'Alpha', 'Gamma']);
    expect(names('retention', true)).toEqual(['Delta', 'Beta', 'Alpha', 'Gamma']);
    expect(names('name', false)).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
  });
});

describe('versusMedian', () => {
  it('says how far above or below the median a value is', () => {
    expect(versusMedian(1.2, 1)).toBe('+20.0%');
    expect(versusMedian(0.5, 1)).toBe('−50.0%');
    expect(versusMedian(1, 1)).toBe('at median');
    expect(versusMedian(null, 1)).toBe('—');
  });
});

describe('figuresAsOf', () => {
  const now = new Date('2026-11-26T15:30:00Z');
  it('gives the time of day for figures of today, and the day too for older ones', () => {
    expect(figuresAsOf('2026-11-26T14:05:59Z', now, 'UTC')).toBe('Figures as of 14:05');
    expect(figuresAsOf('2026-11-25T23:58:00Z', now, 'UTC')).toBe('Figures as of Nov 25, 23:58');
    expect(figuresAsOf('not a time', now, 'UTC')).toBe('Figures as of —');
  });
});
