import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ExperimentDetail, VariantFigures } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ExperimentsPage } from './experiments-page';

const figures = (variant: string, opens: number): VariantFigures => ({
  variant,
  recipients: 50,
  delivered: 50,
  bounces: 0,
  opens,
  clicks: 0,
  donors: 0,
  gifts: 0,
  revenue: '0.00',
  openRate: opens / 50,
  clickRate: 0,
  responseRate: 0,
  rpm: '0.00',
});

const detail: ExperimentDetail = {
  id: 7,
  name: 'Subject test',
  kind: 'subject',
  kindLabel: 'Subject',
  mailingId: 3,
  mailingName: 'November ask',
  testFraction: 0.5,
  metric: 'open_rate',
  waitHours: 4,
  autoSend: false,
  baselineRate: 0.2,
  expectedLift: 0.1,
  alpha: 0.05,
  power: 0.8,
  status: 'decided',
  created: '2026-11-20T10:00:00Z',
  startedAt: '2026-11-20T10:00:00Z',
  decidedAt: '2026-11-20T14:00:00Z',
  winner: 'b',
  variants: [figures('a', 10), figures('b', 40)],
  result: {
    best: 'b',
    runnerUp: 'a',
    test: 'z',
    statistic: 6,
    pValue: 1.9732e-9,
    difference: 0.6,
    ciLow: 0.4432,
    ciHigh: 0.7568,
    alpha: 0.05,
    significant: true,
    summary: 'B wins on open rate',
  },
};

describe('experiments', () => {
  it('lists the experiments with their metric, status and winner', async () => {
    server.use(
      http.get('/api/experiments/mailings', () => HttpResponse.json([{ id: 3, name: 'November ask', variants: 2 }])),
      http.all('*', () =>
        HttpResponse.json([
          { id: 7, name: 'Subject test', kind: 'subject', mailingName: 'November ask', metric: 'open_rate', status: 'decided', winner: 'B' },
        ]),
      ),
    );
    renderWithProviders(<ExperimentsPage />, { route: '/experiments' });
    const row = (await screen.findByRole('link', { name: 'Subject test' }, { timeout: 5000 })).closest('tr');
    expect(row).toHaveTextContent('November ask');
    expect(row).toHaveTextContent('Open rate');
    expect(row).toHaveTextContent('decided');
    expect(await screen.findByRole('option', { name: 'November ask (2 variants)' })).toBeInTheDocument();
  });

  it('shows each variant, the test with its p-value and interval, and sends a held winner', async () => {
    const sent: string[] = [];
    server.use(
      http.post('*', ({ request }) => {
        sent.push(request.url);
        return HttpResponse.json({ ...detail, status: 'winner_sending', winnerSentAt: '2026-11-20T15:00:00Z' });
      }),
      http.all('*', () => HttpResponse.json(detail)),
    );
    renderWithProviders(<ExperimentsPage />, { route: '/experiments?id=7' });
    expect(await screen.findByRole('heading', { name: 'Subject test' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('B wins on open rate');
    expect(screen.getByRole('status')).toHaveTextContent('p < 0.0001');
    expect(screen.getByRole('status')).toHaveTextContent('95 % interval 0.4432 to 0.7568');
    const variants = screen.getByRole('table', { name: 'Variants' });
    expect(variants).toHaveTextContent('80.0%');
    await userEvent.click(screen.getByRole('button', { name: 'Send winner' }));
    expect(await screen.findByText('winner sending')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('/api/experiments/7');
  });
});
