import type { FlightRow } from '@/api/gen/model';

export type SortKey = keyof Pick<
  FlightRow,
  | 'name'
  | 'day'
  | 'recipients'
  | 'delivered'
  | 'bounces'
  | 'humanOpens'
  | 'openRate'
  | 'clickers'
  | 'clickRate'
  | 'unsubscribes'
  | 'gifts'
  | 'revenue'
  | 'averageGift'
  | 'responseRate'
  | 'rpm'
>;

const MONEY: SortKey[] = ['revenue', 'averageGift', 'rpm'];

/** One flight: its total and its variant × segment rows. */
export interface Flight {
  total: FlightRow;
  rows: FlightRow[];
}

/** Splits the API's rows into flights (each with its total) and the range's total. */
export function groupFlights(rows: FlightRow[]): { flights: Flight[]; total: FlightRow | undefined } {
  const flights = new Map<number, Flight>();
  let total: FlightRow | undefined;
  for (const row of rows) {
    if (row.flightId == null) {
      total = row;
      continue;
    }
    const flight = flights.get(row.flightId) ?? { total: row, rows: [] };
    if (row.variant == null) flight.total = row;
    else flight.rows.push(row);
    flights.set(row.flightId, flight);
  }
  return { flights: [...flights.values()], total };
}

const value = (row: FlightRow, key: SortKey): number | string => {
  const v = row[key];
  if (MONEY.includes(key)) return Number(v);
  return v ?? '';
};

/** Flights ordered by their totals' `key`; the rows within a flight by the same key. */
export function sortFlights(flights: Flight[], key: SortKey, descending: boolean): Flight[] {
  const cmp = (a: FlightRow, b: FlightRow) => {
    const x = value(a, key);
    const y = value(b, key);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return descending ? -order : order;
  };
  return [...flights]
    .sort((a, b) => cmp(a.total, b.total))
    .map((f) => ({ ...f, rows: [...f.rows].sort(cmp) }));
}
