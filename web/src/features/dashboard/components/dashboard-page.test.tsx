import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Dashboard } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { DashboardPage } from './dashboard-page';

/** The dashboard as a user without a role gets it: only the tiles of pages everyone may open. */
const NO_ROLE: Dashboard = {
  today: '2026-11-26',
  timeZone: 'America/New_York',
  revenue: null,
  listSize: { subscribed: 1200, change30: 5, joined: 7, left: 2 },
  upcoming: [],
  lastMailings: null,
  topSourceCodes: null,
  states: null,
  alerts: [],
  pacing: null,
  experiments: null,
};

describe('DashboardPage', () => {
  it('shows only the tiles whose data came back', async () => {
    server.use(http.get('/api/dashboard', () => HttpResponse.json(NO_ROLE)));
    renderWithProviders(<DashboardPage />);
    expect(await screen.findByTestId('tile-subscribed')).toBeInTheDocument();
    expect(screen.getByTestId('tile-upcoming')).toBeInTheDocument();
    for (const tile of ['tile-mailings', 'tile-codes', 'tile-states', 'tile-pacing', 'tile-experiments']) {
      expect(screen.queryByTestId(tile)).not.toBeInTheDocument();
    }
  });
});
