import { afterEach, describe, expect, it } from 'vitest';
import { rangeFromParams, thisMonth } from './date-range';
import { formatDate, formatDateTime } from './format';
import { clientIsoDate, clientToday, fromZonedInput, setClientTimeZone, toZonedInput } from './time-zone';

afterEach(() => setClientTimeZone(undefined));

describe("the client's time zone", () => {
  it('shows instants in the client zone, not the browser zone', () => {
    setClientTimeZone('America/New_York');
    // 03:59 UTC on July 1 is 23:59 on June 30 in New York.
    expect(formatDateTime('2026-07-01T03:59:00Z')).toBe(
      new Date('2026-07-01T03:59:00Z').toLocaleString(undefined, { timeZone: 'America/New_York' }),
    );
    expect(formatDateTime('2026-07-01T03:59:00Z')).toContain('6/30/2026');
    expect(formatDate('2026-07-01T03:59:00Z')).toBe('6/30/2026');
    setClientTimeZone('Asia/Tokyo');
    expect(formatDate('2026-07-01T03:59:00Z')).toBe('7/1/2026');
  });
  it('keeps calendar days as they are', () => {
    setClientTimeZone('Pacific/Kiritimati');
    expect(formatDate('2026-07-01')).toBe('7/1/2026');
  });
  it("defaults ranges to the client's today", () => {
    // 02:00 UTC on March 1 is still February 28 in New York.
    const now = new Date('2026-03-01T02:00:00Z');
    setClientTimeZone('America/New_York');
    expect(clientIsoDate(now)).toBe('2026-02-28');
    expect(thisMonth(clientToday(now))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    setClientTimeZone('Asia/Tokyo');
    expect(thisMonth(clientToday(now))).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(rangeFromParams(new URLSearchParams('from=2026-01-01&to=2026-01-31'))).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
  });
  it('ignores an unknown zone', () => {
    setClientTimeZone('Mars/Olympus');
    expect(() => formatDate('2026-07-01T03:59:00Z')).not.toThrow();
  });
  it("reads and writes a send time's input in the client zone, across daylight saving", () => {
    setClientTimeZone('America/New_York');
    expect(toZonedInput('2026-07-01T03:59:00Z')).toBe('2026-06-30T23:59');
    expect(fromZonedInput('2026-06-30T23:59')).toBe('2026-07-01T03:59:00.000Z');
    // Winter: five hours behind UTC; the day clocks go back (1 November 2026) at noon is 17:00 UTC.
    expect(fromZonedInput('2026-01-15T09:00')).toBe('2026-01-15T14:00:00.000Z');
    expect(fromZonedInput('2026-11-01T12:00')).toBe('2026-11-01T17:00:00.000Z');
    expect(toZonedInput('2026-11-01T17:00:00Z')).toBe('2026-11-01T12:00');
    setClientTimeZone('Asia/Tokyo');
    expect(fromZonedInput('2026-07-01T09:00')).toBe('2026-07-01T00:00:00.000Z');
    expect(fromZonedInput('nope')).toBeNull();
    expect(toZonedInput(null)).toBe('');
  });
});
