import { describe, expect, it } from 'vitest';
import type { FlightRow } from '@/api/gen/model';
import { groupFlights, sortFlights } from './utils';

const row = (over: Partial<FlightRow>): FlightRow => ({
  flightId: 1,
  name: 'June',
  day: '2026-06-01',
  variant: 'A',
  segmentId: 0,
  segmentName: 'List: Everyone',
  recipients: 10,
  delivered: 10,
  bounces: 0,
  humanOpens: 0,
  machineOpens: 0,
  openRate: 0,
  clickers: 0,
  clicks: 0,
  clickRate: 0,
  unsubscribes: 0,
  gifts: 0,
  revenue: '0.00',
  averageGift: '0.00',
  responseRate: 0,
  rpm: '0.00',
  ...over,
});

describe('flights', () => {
  const rows = [
    row({ variant: 'A', rpm: '5.00' }),
    row({ variant: 'B', rpm: '50.00' }),
    row({ variant: null, rpm: '27.50' }),
    row({ flightId: 2, name: 'July', variant: 'A', rpm: '100.00' }),
    row({ flightId: 2, name: 'July', variant: null, rpm: '100.00' }),
    row({ flightId: null, name: null, variant: null, rpm: '60.00' }),
  ];

  it('groups rows into flights with their totals and the range total', () => {
    const { flights, total } = groupFlights(rows);
    expect(flights.map((f) => [f.total.name, f.total.variant, f.rows.map((r) => r.variant)])).toEqual([
      ['June', null, ['A', 'B']],
      ['July', null, ['A']],
    ]);
    expect(total?.rpm).toBe('60.00');
  });

  it('sorts money as numbers, flights by their totals and rows within a flight', () => {
    const { flights } = groupFlights(rows);
    const sorted = sortFlights(flights, 'rpm', true);
    expect(sorted.map((f) => f.total.name)).toEqual(['July', 'June']);
    expect(sorted[1]!.rows.map((r) => r.variant)).toEqual(['B', 'A']);
    expect(sortFlights(flights, 'rpm', false).map((f) => f.total.name)).toEqual(['June', 'July']);
  });
});
