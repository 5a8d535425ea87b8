import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Portfolio, PortfolioFigures } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { PortfolioPage } from './portfolio-page';

const figures = (over: Partial<PortfolioFigures>): PortfolioFigures => ({
  today: '2026-11-26',
  monthNet: '0.00',
  monthGoal: null,
  monthPacing: null,
  yearNet: '0.00',
  yearGoal: null,
  yearPacing: null,
  newDonors: 0,
  retention: null,
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
  netByMonth: Array(12).fill('0.00'),
  ...over,
});

const PORTFOLIO: Portfolio = {
  generatedAt: '2026-11-26T15:00:00Z',
  clients: [
    {
      id: 1,
      name: 'Alpha Fund',
      short: 'alpha',
      figures: figures({ monthNet: '1200.50', monthGoal: '2000.00', monthPacing: 1.1, rpm: '40.00', listChange30: -3 }),
    },
    { id: 2, name: 'Beta PAC', short: 'beta', figures: figures({ monthNet: '90.00', rpm: '20.00', jobsFailing: 2 }) },
    { id: 3, name: 'Gamma', short: 'gamma', figures: null },
  ],
  benchmarks: { rpm: '30.00', responseRate: null, retention: null, costPerDonor: null },
};

describe('PortfolioPage', () => {
  it('shows every client with its figures, sorts by a figure, benchmarks against the median and opens a client', async () => {
    server.use(http.get('/api/portfolio', () => HttpResponse.json(PORTFOLIO)));
    const onOpen = vi.fn();
    renderWithProviders(<PortfolioPage onOpen={onOpen} />);
    const table = await screen.findByRole('table', { name: 'Clients' });
    const names = () => within(table).getAllByRole('rowheader').map((c) => c.textContent);
    expect(names()).toEqual(['Alpha Fund', 'Beta PAC', 'Gamma']);
    expect(within(table).getByText('$1,200.50')).toBeInTheDocument();
    expect(within(table).getByText('goal $2,000.00 · 110% of projection')).toBeInTheDocument();
    expect(within(table).getByText('−3')).toBeInTheDocument();
    expect(within(table).getByText('Figures unavailable')).toBeInTheDocument();
    expect(screen.getByText(/^Figures as of .*\d\d:\d\d \(updated every 5 minutes\)\.$/)).toBeInTheDocument();
    expect(within(table).getByRole('img', { name: 'Alpha Fund: net per month, last 12 months' })).toBeInTheDocument();

    // Jobs failing, highest first; the client without figures last.
    await userEvent.click(within(table).getByRole('button', { name: 'Jobs failing' }));
    expect(names()).toEqual(['Beta PAC', 'Alpha Fund', 'Gamma']);

    const benchmarks = screen.getByRole('table', { name: 'Benchmarks' });
    const alpha = within(benchmarks).getByRole('row', { name: /Alpha Fund/ });
    expect(within(alpha).getByText('+33.3%')).toBeInTheDocument();
    expect(within(benchmarks).getByRole('row', { name: /Median of your clients/ })).toHaveTextContent('$30.00');

    await userEvent.click(within(table).getByRole('button', { name: 'Beta PAC' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 2, short: 'beta' }));
  });
});
