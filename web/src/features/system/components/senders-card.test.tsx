import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sender } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { SendersCard } from './senders-card';

const HQ: Sender = { id: 1, name: 'Campaign HQ', fromAddress: 'hq@example.org', replyTo: 'reply@example.org', created: '2026-05-01T10:00:00Z' };

afterEach(() => act(() => clearSnacks()));

describe('SendersCard', () => {
  it('lists the senders and adds one: "Sender added"', async () => {
    let senders: Sender[] = [HQ];
    server.use(
      http.post('/api/sender', async ({ request }) => {
        const created: Sender = { id: 2, created: HQ.created, ...((await request.json()) as Omit<Sender, 'id' | 'created'>) };
        senders = [...senders, created];
        return HttpResponse.json(created, { status: 201 });
      }),
      http.get('/api/sender', () => HttpResponse.json(senders)),
      http.all('*', () => HttpResponse.json([])),
    );
    renderWithProviders(<SendersCard />);
    const table = await screen.findByRole('table', { name: 'Senders' });
    const row = within(table).getByText('Campaign HQ').closest('tr')!;
    expect(row).toHaveTextContent('hq@example.org');
    expect(row).toHaveTextContent('reply@example.org');

    const add = screen.getByRole('button', { name: 'Add sender' });
    expect(add).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Name'), 'Field Office');
    await userEvent.type(screen.getByLabelText('From address'), 'field@example.org');
    expect(add).toBeEnabled();
    await userEvent.click(add);
    expect(await screen.findByText('Sender added')).toBeInTheDocument();
    await settled();
    expect(sentOnce('POST').body).toEqual({ name: 'Field Office', fromAddress: 'field@example.org' });
    expect(await within(table).findByText('field@example.org')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('says why an invalid From or Reply-to address keeps Add sender disabled (issue 17, bug 6)', async () => {
    server.use(http.all('*', () => HttpResponse.json([])));
    renderWithProviders(<SendersCard />);
    await userEvent.type(screen.getByLabelText('Name'), 'Field Office');
    await userEvent.type(screen.getByLabelText('From address'), 'field@');
    expect(screen.getByRole('button', { name: 'Add sender' })).toBeDisabled();
    expect(screen.getByLabelText('From address')).toHaveAccessibleDescription('Not a valid email');
    await userEvent.type(screen.getByLabelText('Reply-to (optional)'), 'reply');
    expect(screen.getByLabelText('Reply-to (optional)')).toHaveAccessibleDescription('Not a valid email');
    await userEvent.type(screen.getByLabelText('From address'), 'example.org');
    expect(screen.getByLabelText('From address')).not.toHaveAccessibleDescription('Not a valid email');
  });

  it('deletes a sender after confirmation', async () => {
    server.use(
      http.delete('/api/sender/1', () => new HttpResponse(null, { status: 204 })),
      http.all('*', () => HttpResponse.json([HQ])),
    );
    renderWithProviders(<SendersCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Campaign HQ' }));
    expect(await screen.findByText('Delete this item?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() =>
      expect(sent().some((r) => r.url === '/api/sender/1' && r.method === 'DELETE')).toBe(true),
    );
  });
});
