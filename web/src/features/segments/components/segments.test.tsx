import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { SegmentView } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { SegmentDetail } from './segment-detail';
import { SegmentsPage } from './segments-page';

vi.mock('@/components/charts/echart', () => ({
  EChart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const segment = (over: Partial<SegmentView>): SegmentView => ({
  id: 1,
  name: 'LYBUNT',
  standard: 'lybunt',
  rule: { op: 'and', conditions: [{ field: 'donorStatus', op: 'is', value: 'lybunt' }] },
  size: 120,
  previousSize: 100,
  change: 20,
  computed: '2026-11-23T06:00:00Z',
  created: '2026-11-01T00:00:00Z',
  updated: '2026-11-01T00:00:00Z',
  ...over,
});

describe('segments', () => {
  it('lists each segment with its size and the change since the last compute', async () => {
    server.use(
      http.all('*', () =>
        HttpResponse.json([segment({}), segment({ id: 2, name: 'Mine', standard: null, computed: null, change: null })]),
      ),
    );
    renderWithProviders(<SegmentsPage />, { route: '/segments' });
    const row = (await screen.findByRole('link', { name: 'LYBUNT' }, { timeout: 5000 })).closest('tr');
    expect(row).toHaveTextContent('120');
    expect(row).toHaveTextContent('+20');
    expect(screen.getByRole('link', { name: 'Mine' }).closest('tr')).toHaveTextContent('Not computed yet');
    expect(screen.getByRole('link', { name: 'Create segment' })).toHaveAttribute('href', '/segments/detail');
  });

  it('previews the count of the rule being built and shows a refused rule path', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.all('/api/segments/preview', async ({ request }) => {
        const body = (await request.json()) as { rule: { conditions: { value: unknown }[] } };
        bodies.push(body.rule);
        if (body.rule.conditions[0]?.value === 0)
          return HttpResponse.json({ message: 'rule.conditions[0].value: must be a whole number from 1 to 36500' }, { status: 400 });
        return HttpResponse.json({ count: 42 });
      }),
      http.all('*', () => HttpResponse.json([])),
    );
    renderWithProviders(<SegmentDetail />, { route: '/segments/detail' });
    expect(await screen.findByText('Matching contacts: 42', {}, { timeout: 5000 })).toBeInTheDocument();
    const days = screen.getByLabelText('Days');
    await userEvent.clear(days);
    await waitFor(() => expect(screen.getByTestId('preview-count')).toHaveTextContent('Rule error: rule.conditions[0].value'));
    expect(bodies[0]).toEqual({ op: 'and', conditions: [{ field: 'gave', op: 'withinDays', value: 30 }], groups: [] });
  });
});
