import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { CohortsView, RetentionDonorPage, RetentionView, SustainersView } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { RetentionPage } from './retention-page';

// Charts draw on canvas, which jsdom lacks; their data is tested in utils.test.ts.
vi.mock('@/components/charts/echart', () => ({
  EChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const line = (category: string, donors: number, previous: string, current: string, change: string) => ({
  category,
  donors,
  previous,
  current,
  change,
});

const RETENTION: RetentionView = {
  period: 'year',
  asOf: '2026-06-15',
  from: '2026-01-01',
  to: '2026-06-01',
  previousFrom: '2025-01-01',
  previousTo: '2025-12-01',
  donorsPrevious: 5,
  donorsCurrent: 7,
  retained: 3,
  donorRetention: '0.6000',
  dollarsPrevious: '490.00',
  dollarsCurrent: '295.00',
  dollarsRetained: '280.00',
  dollarRetention: '0.5714',
  gains: '165.00',
  losses: '360.00',
  lines: [
    line('new', 2, '0.00', '35.00', '35.00'),
    line('recaptured', 2, '0.00', '80.00', '80.00'),
    line('upgraded', 1, '100.00', '150.00', '50.00'),
    line('same', 1, '50.00', '50.00', '0.00'),
    line('downgraded', 1, '200.00', '80.00', '-120.00'),
    line('lost', 2, '140.00', '-100.00', '-240.00'),
  ],
  computed: '2026-06-15T12:00:00Z',
  timeZone: 'America/New_York',
};

const COHORTS: CohortsView = {
  grain: 'month',
  by: 'all',
  ages: [1, 3, 6, 12, 24],
  cohorts: [
    {
      source: 'all',
      cohort: '2026-01-01',
      donors: 4,
      age: 5,
      cells: [
        { age: 1, share: '0.5000', revenuePerDonor: '20.00' },
        { age: 3, share: '0.2500', revenuePerDonor: '30.00' },
        { age: 6, share: null, revenuePerDonor: null },
        { age: 12, share: null, revenuePerDonor: null },
        { age: 24, share: null, revenuePerDonor: null },
      ],
    },
  ],
  curves: [{ source: 'all', points: [{ age: 0, share: '1.0000', revenuePerDonor: '10.00' }] }],
  values: [{ source: 'all', donors: 4, observedPerDonor: '30.00', projectedPerDonor: null, backtestMape: null, backtestCohorts: 0 }],
  computed: '2026-06-15T12:00:00Z',
  refreshed: '2026-06-15T11:00:00Z',
};

const SUSTAINERS: SustainersView = {
  months: [{ month: '2026-05-01', active: 3, started: 1, ended: 2, churn: '0.6667', averageAmount: '20.00' }],
  earn: [{ months: 3, sustainers: 3, received: 8, expected: 9, rate: '0.8889' }],
  computed: '2026-06-15T12:00:00Z',
};

const DONORS: RetentionDonorPage = {
  rows: [{ contactId: 7, email: 'd@example.org', name: 'Dee', previous: '40.00', current: '0.00' }],
  total: 1,
  page: 1,
  pageSize: 50,
};

describe('RetentionPage', () => {
  it('shows retention, the gain/loss report and the cohorts, and opens the donors behind a count', async () => {
    let asked: unknown = null;
    server.use(
      http.get('/api/retention', () => HttpResponse.json(RETENTION)),
      http.get('/api/retention/cohorts', () => HttpResponse.json(COHORTS)),
      http.get('/api/retention/sustainers', () => HttpResponse.json(SUSTAINERS)),
      http.post('/api/retention/donors', async ({ request }) => {
        asked = await request.json();
        return HttpResponse.json(DONORS);
      }),
    );
    renderWithProviders(<RetentionPage />);
    expect(await screen.findByTestId('tile-Donor retention')).toHaveTextContent('60.0%');
    const report = screen.getByRole('table', { name: 'Gain/loss report' });
    expect(within(report).getByRole('row', { name: /^Downgraded/ })).toHaveTextContent('$200.00$80.00-$120.00');
    const heat = await screen.findByRole('table', { name: 'Cohort heat map' });
    expect(within(heat).getAllByRole('row')[1]).toHaveTextContent('50.0%$20.00');
    expect(await screen.findByTestId('tile-EARN 3')).toHaveTextContent('88.9%');

    await userEvent.click(within(report).getByRole('button', { name: 'Lost donors: 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lost donors' });
    expect(await within(dialog).findByRole('link', { name: 'd@example.org' })).toHaveAttribute('href', '/contacts/7');
    expect(asked).toEqual({ kind: 'retention', period: 'year', asOf: '2026-06-15', category: 'lost' });
  });
});
