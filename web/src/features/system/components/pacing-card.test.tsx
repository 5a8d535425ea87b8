import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ProviderPacing } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { PacingCard } from './pacing-card';

const pacing: ProviderPacing[] = [
  { provider: 'gmail', perSecond: 50, connections: 5 },
  { provider: 'yahoo', perSecond: 20, connections: 3 },
  { provider: 'microsoft', perSecond: 20, connections: 3 },
  { provider: 'other', perSecond: 0, connections: 4 },
];

describe('PacingCard', () => {
  it('shows each provider’s pace and saves a change', async () => {
    let saved: ProviderPacing[] = [];
    server.use(
      http.get('/api/deliverability/pacing', () => HttpResponse.json(pacing)),
      http.put('/api/deliverability/pacing', async ({ request }) => {
        saved = (await request.json()) as ProviderPacing[];
        return HttpResponse.json(saved);
      }),
    );
    renderWithProviders(<PacingCard />);
    const gmail = await screen.findByLabelText('Messages a second to Gmail');
    expect(gmail).toHaveValue('50');
    await userEvent.clear(gmail);
    await userEvent.type(gmail, '10');
    await userEvent.click(screen.getByRole('button', { name: 'Save pacing' }));
    await waitFor(() =>
      expect(saved).toEqual([{ provider: 'gmail', perSecond: 10, connections: 5 }, ...pacing.slice(1)]),
    );
  });

  it('will not save a pace out of range', async () => {
    server.use(http.get('/api/deliverability/pacing', () => HttpResponse.json(pacing)));
    renderWithProviders(<PacingCard />);
    const connections = await screen.findByLabelText('Connections for Yahoo and AOL');
    await userEvent.clear(connections);
    await userEvent.type(connections, '0');
    expect(connections).toHaveAccessibleDescription('A whole number from 1 to 64');
    expect(connections).toHaveClass('is-invalid');
    expect(screen.getByRole('button', { name: 'Save pacing' })).toBeDisabled();
  });
});
