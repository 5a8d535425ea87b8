import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { ChannelAmounts, ProjectionView } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ProjectionsPage } from './projections-page';

// Charts draw on canvas/SVG, which jsdom lacks; the chart's data is tested in utils.test.ts.
vi.mock('@/components/charts/echart', () => ({
  EChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const amounts = (email: string, total: string): ChannelAmounts => ({ email, ads: '0.00', organic: '0.00', other: '0.00', total });

const VIEW: ProjectionView = {
  year: 2026,
  today: '2026-03-15',
  months: Array.from({ length: 12 }, (_, i) => ({
    month: i + 1,
    projection: amounts(`${100 + i}.00`, `${200 + i}.00`),
    actual: amounts('0.00', i === 0 ? '150.00' : '0.00'),
    goal: i === 0 ? '250.00' : null,
  })),
  growth: '1.0500',
  actualToDate: '150.00',
  projectionToDate: '200.00',
  pacing: '0.7500',
  monthToDate: '0.00',
  monthProjectionToDate: '0.00',
  endOfMonth: { value: '300.00' },
  endOfQuarter: { value: '900.00' },
  markers: [],
};

describe('ProjectionsPage', () => {
  it('shows the year by month: a named row per month with its channel projections, total, actual and goal', async () => {
    server.use(http.get('/api/projections', () => HttpResponse.json(VIEW)));
    renderWithProviders(<ProjectionsPage />);
    const table = await screen.findByRole('table', { name: 'Projection by month' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Month',
      'E-mail',
      'Ads',
      'Organic',
      'Other',
      'Projection',
      'Actual',
      'Goal',
    ]);
    expect(within(table).getByRole('columnheader', { name: 'Projection' })).toHaveClass('text-end');
    expect(within(table).getByRole('columnheader', { name: 'Goal' })).not.toHaveClass('text-end');
    // The header row and twelve months.
    expect(within(table).getAllByRole('row')).toHaveLength(13);
    const january = within(table).getByRole('row', { name: /^Jan/ });
    expect(within(january).getByRole('rowheader')).toHaveTextContent('Jan');
    expect(within(january).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '$100.00',
      '$0.00',
      '$0.00',
      '$0.00',
      '$200.00',
      '$150.00',
      '',
    ]);
    expect(within(january).getByRole('cell', { name: '$200.00' })).toHaveClass('text-end');
    expect(within(january).getByRole('textbox', { name: 'Goal for Jan' })).toHaveValue('250.00');
    expect(within(table).getByRole('rowheader', { name: 'Dec' })).toBeInTheDocument();
  });
});
