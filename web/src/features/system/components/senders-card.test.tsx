import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sender } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { jsonResponse, renderWithProviders } from '@/test/utils';
import { SendersCard } from './senders-card';

const fetchMock = vi.fn<typeof fetch>();

const HQ: Sender = { id: 1, name: 'Campaign HQ', fromAddress: 'hq@example.org', replyTo: 'reply@example.org', created: '2026-05-01T10:00:00Z' };

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => act(() => clearSnacks()));

describe('SendersCard', () => {
  it('lists the senders and adds one: "Sender added"', async () => {
    let senders: Sender[] = [HQ];
    fetchMock.mockImplementation((input, init) => {
      if (String(input) === '/api/sender' && init?.method === 'POST') {
        const created: Sender = { id: 2, created: HQ.created, ...(JSON.parse(String(init.body)) as Omit<Sender, 'id' | 'created'>) };
        senders = [...senders, created];
        return Promise.resolve(jsonResponse(created, 201));
      }
      if (String(input) === '/api/sender') return Promise.resolve(jsonResponse(senders));
      return Promise.resolve(jsonResponse([]));
    });
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
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ name: 'Field Office', fromAddress: 'field@example.org' });
    expect(await within(table).findByText('field@example.org')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('says why an invalid From or Reply-to address keeps Add sender disabled (issue 17, bug 6)', async () => {
    fetchMock.mockResolvedValue(jsonResponse([]));
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
    fetchMock.mockImplementation((input, init) => {
      if (String(input) === '/api/sender/1' && init?.method === 'DELETE') return Promise.resolve(new Response(null, { status: 204 }));
      return Promise.resolve(jsonResponse([HQ]));
    });
    renderWithProviders(<SendersCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Campaign HQ' }));
    expect(await screen.findByText('Delete this item?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/sender/1' && init?.method === 'DELETE')).toBe(true),
    );
  });
});
