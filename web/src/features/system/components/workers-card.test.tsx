import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { WorkerStatus } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { WorkersCard } from './workers-card';

const worker = (overrides: Partial<WorkerStatus> = {}): WorkerStatus => ({
  name: 'compass-worker-41-ab12cd34',
  host: 'app-1',
  started: '2026-05-01T10:00:00Z',
  live: true,
  lastBeat: '2026-05-01T10:05:00Z',
  lastPoll: '2026-05-01T10:05:00Z',
  runningJobs: 2,
  jobIds: [17],
  ...overrides,
});

describe('WorkersCard', () => {
  it('lists the workers, whether each is live and what it runs', async () => {
    server.use(
      http.get('/api/workers', () =>
        HttpResponse.json([worker(), worker({ name: 'compass-worker-7-ffee0011', live: false, runningJobs: 0, jobIds: [] })]),
      ),
    );
    renderWithProviders(<WorkersCard />);
    const table = await screen.findByRole('table', { name: 'Workers' });
    expect(screen.getByText('1 worker is running.', { exact: false })).toBeInTheDocument();
    const live = within(table).getByText('compass-worker-41-ab12cd34').closest('tr')!;
    expect(live).toHaveTextContent('live');
    expect(live).toHaveTextContent('2 jobs (yours: #17)');
    const gone = within(table).getByText('compass-worker-7-ffee0011').closest('tr')!;
    expect(gone).toHaveTextContent('gone');
    expect(gone).toHaveTextContent('idle');
  });

  it('says so when no worker is running', async () => {
    server.use(http.get('/api/workers', () => HttpResponse.json([worker({ live: false })])));
    renderWithProviders(<WorkersCard />);
    expect(await screen.findByText('No worker is running: jobs wait until one starts.')).toBeInTheDocument();
  });
});
