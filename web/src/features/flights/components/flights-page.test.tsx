import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { FlightRow, LinkClicks } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { FlightsPage } from './flights-page';

const figures = (recipients: number, revenue: string): FlightRow => ({
  recipients,
  delivered: recipients,
  bounces: 0,
  humanOpens: 1,
  machineOpens: 0,
  openRate: 0.5,
  clickers: 1,
  clicks: 1,
  clickRate: 0.5,
  unsubscribes: 0,
  gifts: 1,
  revenue,
  averageGift: revenue,
  responseRate: 0.5,
  rpm: '0.00',
});

// The API's rows: each flight's total (no variant), its variant × segment rows, and the range's total (no flight).
const ROWS: FlightRow[] = [
  { ...figures(2, '25.00'), flightId: 7, name: 'Spring appeal', day: '2026-03-02' },
  { ...figures(1, '25.00'), flightId: 7, name: 'Spring appeal', day: '2026-03-02', variant: 'A', segmentId: 1, segmentName: 'Donors' },
  { ...figures(1, '0.00'), flightId: 7, name: 'Spring appeal', day: '2026-03-02', variant: 'B', segmentId: 1, segmentName: 'Donors' },
  { ...figures(5, '10.00'), flightId: 8, name: 'Summer news', day: '2026-03-09' },
  { ...figures(5, '10.00'), flightId: 8, name: 'Summer news', day: '2026-03-09', variant: 'A', segmentId: 2, segmentName: 'All' },
  figures(7, '35.00'),
];
const LINKS: LinkClicks[] = [{ url: 'https://example.org/spring', clicks: 3, clickers: 2 }];

const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);

describe('FlightsPage', () => {
  it('lists each flight with its variant rows, the range total last, sorts by a figure and opens a flight\'s links', async () => {
    server.use(
      http.get('/api/flights', () => HttpResponse.json(ROWS)),
      http.get('/api/flights/7/links', () => HttpResponse.json(LINKS)),
      http.get('/api/external-mailings', () => HttpResponse.json([])),
    );
    renderWithProviders(<FlightsPage />);
    const table = await screen.findByRole('table', { name: 'Flights' });
    expect(screen.getByRole('region', { name: 'Flights (scrolls sideways)' })).toContainElement(table);
    expect(table).toHaveClass('table-sticky-first');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Flight ▼',
      'Variant',
      'Segment',
      'Revenue',
      'Gifts',
      'Average gift',
      'Response rate',
      'RPM',
      'Recipients',
      'Delivered',
      'Bounces',
      'Human opens',
      'Open rate',
      'Clicks',
      'Click rate',
      'Unsubscribes',
    ]);
    const [, body, foot] = within(table).getAllByRole('rowgroup');
    // Newest flight first: its total row, then its variant rows.
    const rows = within(body).getAllByRole('row');
    expect(rows).toHaveLength(5);
    expect(rows[0]).toHaveClass('table-total-row');
    expect(cells(rows[0]).slice(0, 4)).toEqual([expect.stringContaining('Summer news'), 'All', '', '$10.00']);
    expect(cells(rows[1]).slice(0, 4)).toEqual(['', 'A', 'All', '$10.00']);
    expect(cells(rows[2])[0]).toContain('Spring appeal');
    expect(cells(rows[3]).slice(1, 3)).toEqual(['A', 'Donors']);
    const total = within(foot).getByRole('row');
    expect(cells(total).slice(0, 4)).toEqual(['Total', '', '', '$35.00']);
    expect(cells(total)[8]).toBe('7');

    await userEvent.click(within(table).getByRole('button', { name: 'Recipients' }));
    expect(within(table).getByRole('columnheader', { name: /Recipients/ })).toHaveAttribute('aria-sort', 'descending');
    expect(cells(within(body).getAllByRole('row')[0])[0]).toContain('Summer news');
    await userEvent.click(within(table).getByRole('button', { name: /Recipients/ }));
    expect(within(table).getByRole('columnheader', { name: /Recipients/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(cells(within(body).getAllByRole('row')[0])[0]).toContain('Spring appeal');

    const spring = within(body).getAllByRole('row')[0];
    const links = within(spring).getByRole('button', { name: 'Links' });
    await userEvent.click(links);
    const clicks = await screen.findByRole('table', { name: 'Clicks per link' });
    expect(clicks).toHaveTextContent('https://example.org/spring');
    // The links sit in one full-width row under the flight's total; the button keeps the focus.
    expect(clicks.closest('td')).toHaveAttribute('colspan', '16');
    expect(within(spring).getByRole('button', { name: 'Hide links' })).toHaveFocus();
    await userEvent.click(within(spring).getByRole('button', { name: 'Hide links' }));
    expect(screen.queryByRole('table', { name: 'Clicks per link' })).not.toBeInTheDocument();
  });

  it('says so when no flight was sent in the range', async () => {
    server.use(
      http.get('/api/flights', () => HttpResponse.json([])),
      http.get('/api/external-mailings', () => HttpResponse.json([])),
    );
    renderWithProviders(<FlightsPage />);
    expect(await screen.findByText('No flights were sent in this range.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Flights' })).not.toBeInTheDocument();
  });
});
