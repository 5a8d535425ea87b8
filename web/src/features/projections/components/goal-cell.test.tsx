import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ProjectionMonth } from '@/api/gen/model';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { GoalCell } from './projections-page';

const zero = { email: '0.00', ads: '0.00', organic: '0.00', other: '0.00', total: '0.00' };
const march: ProjectionMonth = { month: 3, projection: zero, actual: zero, goal: null };

describe('a month goal', () => {
  it('is saved when the field is left with Tab, once', async () => {
    const saved: unknown[] = [];
    server.use(
      http.put('/api/projections/goals', async ({ request }) => {
        saved.push(await request.json());
        return HttpResponse.json({ month: 3, goal: '1500.00' });
      }),
    );
    renderWithProviders(
      <>
        <GoalCell month={march} />
        <button type="button">elsewhere</button>
      </>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Goal for Mar' }), '1500');
    // Tab moves onto the cell's own Save button first (that leaves saving to it); a second Tab leaves the cell.
    await user.tab();
    await user.tab();
    await waitFor(() => expect(saved).toEqual([{ month: 3, amount: '1500' }]));
    expect(await screen.findByText('Goal saved')).toBeInTheDocument();
  });
});
