import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type {
  Breakdowns,
  ContactGivingDetail,
  ContributionSummary,
  Gift,
  GiftPage,
  OriginCodeValueTable,
  RevenueSeries,
  SourceCodeTable,
} from '@/api/gen/model';
import { formatMoney } from '@/lib/money';
import { sent, server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ContactGiving } from './contact-giving';
import { ContributionsPage } from './contributions-page';
import { OriginCodeValuePanel } from './origin-code-value';
import { SourceCodesPage } from './source-codes-page';

// Charts draw on canvas/SVG, which jsdom lacks; the chart's data is tested in utils.test.ts.
vi.mock('@/components/charts/echart', () => ({
  EChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

/** The addresses (path and query) the page asked for, oldest first. */
const urls = () => sent().map((r) => r.url);

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
  recurringShare: 0.1266,
};
const SERIES: RevenueSeries = { from: '2026-03-01', to: '2026-03-31', days: [] };
const BREAKDOWNS: Breakdowns = {
  from: '2026-03-01',
  to: '2026-03-31',
  channels: [{ key: 'em', gifts: 2, donors: 1, gross: '35.00', net: '35.00' }],
  sourceCodes: [],
  pages: [],
  bands: [],
};
const gift = (id: number, amount: string, refcode: string | null): Gift => ({
  id,
  platform: 'actblue',
  lineItemId: `L${id}`,
  paidAt: '2026-03-02T15:00:00Z',
  amount,
  refcode: refcode ?? undefined,
  recurring: id === 2,
  refunded: false,
  attribution: 'none',
  email: `d${id}@example.org`,
});
const page = (items: Gift[], total: number): GiftPage => ({ items, total, page: 1, pageSize: 25 });

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

describe('ContributionsPage', () => {
  it('shows the totals, breakdowns and gifts of the range, and asks the server for another order', async () => {
    server.use(
      http.all('/api/contributions/summary*', () => HttpResponse.json(SUMMARY)),
      http.all('/api/contributions/series*', () => HttpResponse.json(SERIES)),
      http.all('/api/contributions/breakdowns*', () => HttpResponse.json(BREAKDOWNS)),
      http.all('*', ({ request }) =>
        HttpResponse.json(
          request.url.includes('sort=amount')
            ? page([gift(2, '25.00', null), gift(1, '10.00', 'em_x')], 2)
            : page([gift(1, '10.00', 'em_x'), gift(2, '25.00', null)], 2),
        ),
      ),
    );
    renderWithProviders(<ContributionsPage />, { route: '/revenue/contributions?from=2026-03-01&to=2026-03-31' });
    expect(await screen.findByTestId('tile-Gross')).toHaveTextContent(formatMoney('197.50'));
    expect(screen.getByTestId('tile-Net')).toHaveTextContent(formatMoney('77.50'));
    expect(screen.getByTestId('tile-New donors')).toHaveTextContent('3');
    expect(screen.getByTestId('tile-Median gift')).toHaveTextContent(formatMoney('17.50'));
    expect(screen.getByRole('img', { name: 'Daily net revenue and the previous period' })).toBeInTheDocument();
    const channels = await screen.findByRole('table', { name: 'By channel' });
    expect(within(channels).getByText('em').closest('tr')).toHaveTextContent(formatMoney('35.00'));

    const table = await screen.findByRole('table', { name: 'Contributions' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('em_x');
    expect(rows[1]).toHaveTextContent(formatMoney('10.00'));
    expect(screen.getByText('Page 1 of 1 · 2 rows')).toBeInTheDocument();
    expect(urls()).toContain(
      '/api/contributions?from=2026-03-01&to=2026-03-31&sort=paidAt&order=desc&page=1&pageSize=25',
    );

    await userEvent.click(within(table).getByRole('button', { name: 'Amount' }));
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Contributions' })).getAllByRole('row')[1]).toHaveTextContent('d2@'),
    );
    expect(urls()).toContain(
      '/api/contributions?from=2026-03-01&to=2026-03-31&sort=amount&order=desc&page=1&pageSize=25',
    );
  });

  it('filters the gifts by the source code in the address', async () => {
    server.use(
      http.all('/api/contributions/summary*', () => HttpResponse.json(SUMMARY)),
      http.all('/api/contributions/series*', () => HttpResponse.json(SERIES)),
      http.all('/api/contributions/breakdowns*', () => HttpResponse.json(BREAKDOWNS)),
      http.all('*', () => HttpResponse.json(page([], 0))),
    );
    renderWithProviders(<ContributionsPage />, {
      route: '/revenue/contributions?from=2026-03-01&to=2026-03-31&sourceCodeId=7',
    });
    expect(await screen.findByText('No contributions match.')).toBeInTheDocument();
    expect(urls()).toContain(
      '/api/contributions?from=2026-03-01&to=2026-03-31&sourceCodeId=7&sort=paidAt&order=desc&page=1&pageSize=25',
    );
  });
});

describe('SourceCodesPage', () => {
  it('lists each code with its money and opens its contributions on click', async () => {
    const table: SourceCodeTable = {
      from: '2026-03-01',
      to: '2026-03-31',
      items: [
        {
          id: 7,
          code: 'em_20260301_spring_a',
          parsed: true,
          channel: 'em',
          codeDate: '2026-03-01',
          campaign: 'spring',
          variant: 'a',
          gifts: 2,
          donors: 1,
          gross: '35.00',
          net: '35.00',
          averageGift: '17.50',
          firstGift: '2026-03-02T15:00:00Z',
          lastGift: '2026-03-15T16:00:00Z',
          mailingId: 3,
          mailingName: 'Spring appeal',
          giftsBeforeSend: 1,
        },
        {
          id: 8,
          code: 'fbad',
          parsed: false,
          gifts: 0,
          donors: 0,
          gross: '0.00',
          net: '0.00',
          averageGift: '0.00',
          giftsBeforeSend: 0,
        },
      ],
      giftsBeforeSend: 1,
    };
    server.use(http.all('*', () => HttpResponse.json(table)));
    renderWithProviders(
      <Routes>
        <Route path="/revenue" element={<SourceCodesPage />} />
        <Route path="/revenue/contributions" element={<Where />} />
      </Routes>,
      { route: '/revenue?from=2026-03-01&to=2026-03-31' },
    );
    const row = (await screen.findByText('em_20260301_spring_a')).closest('tr')!;
    expect(row).toHaveTextContent('spring');
    expect(row).toHaveTextContent(formatMoney('17.50'));
    expect(row).toHaveTextContent('Mailing: Spring appeal');
    expect(screen.getByRole('columnheader', { name: /Before send/ })).toBeInTheDocument();
    expect(screen.getByTestId('gifts-before-send')).toHaveTextContent(
      'Refcode used before its mailing was sent: 1 gift in this range',
    );
    expect(screen.getByText('fbad').closest('tr')).toHaveTextContent('unparsed');
    expect(urls()[0]).toBe('/api/contribution-source-codes?from=2026-03-01&to=2026-03-31');
    await userEvent.click(row);
    expect(await screen.findByTestId('where')).toHaveTextContent(
      '/revenue/contributions?from=2026-03-01&to=2026-03-31&sourceCodeId=7',
    );
  });
});

describe('OriginCodeValuePanel', () => {
  it('shows what each origin code brought', async () => {
    const value: OriginCodeValueTable = {
      from: '2026-02-01',
      to: '2026-03-31',
      items: [
        {
          id: 1,
          name: 'web',
          acquired: 3,
          stillSubscribed: 2,
          donors: 2,
          donorShare: 2 / 3,
          revenue30: '20.00',
          revenue90: '1020.00',
          revenue365: '1020.00',
          revenueAll: '1020.00',
          revenuePerContact: '340.00',
        },
      ],
    };
    server.use(
      http.all('/api/external-origin-code/value*', () => HttpResponse.json(value)),
      http.all('*', () => HttpResponse.json([])),
    );
    renderWithProviders(<OriginCodeValuePanel />, { route: '/segments/origin-codes?from=2026-02-01&to=2026-03-31' });
    const row = (await screen.findByText('web')).closest('tr')!;
    expect(row).toHaveTextContent(formatMoney('1020.00'));
    expect(row).toHaveTextContent(formatMoney('340.00'));
    expect(row).toHaveTextContent((2 / 3).toLocaleString(undefined, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }));
  });
});

describe('ContactGiving', () => {
  it('shows the giving summary and the gift history', async () => {
    const detail: ContactGivingDetail = {
      summary: {
        firstGift: '2026-03-01T05:10:00Z',
        lastGift: '2026-04-01T04:30:00Z',
        hpc: '1000.00',
        mrc: '1000.00',
        total: '1040.00',
        count: 4,
        sustainer: false,
        category: 'repeat donor',
      },
      gifts: [gift(11, '1000.00', null)],
    };
    server.use(http.all('*', () => HttpResponse.json(detail)));
    renderWithProviders(<ContactGiving contactId={5} />);
    expect(await screen.findByText('repeat donor')).toBeInTheDocument();
    const summary = screen.getByLabelText('Giving summary');
    expect(within(summary).getByText('Total').nextElementSibling).toHaveTextContent(formatMoney('1040.00'));
    expect(within(summary).getByText('HPC').nextElementSibling).toHaveTextContent(formatMoney('1000.00'));
    expect(within(screen.getByRole('table', { name: 'Gift history' })).getAllByRole('row')).toHaveLength(2);
    expect(urls()[0]).toBe('/api/contacts/5/giving');
  });
});
