import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Mailing } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, server } from '@/test/msw';
import { MAILING, renderEditor, serve, STATS } from '../testing/mailings-server';

afterEach(() => act(() => clearSnacks()));

describe('MailingFigures', () => {
  const SENT: Mailing = { ...MAILING, isDraft: false, sendAttempt: '2026-06-01T09:30:05Z', delivery: 'done' };
  const figure = (label: string) => screen.getByRole('definition', { name: label });

  it("shows the sent mailing's figures from the stats endpoint, counts in the browser locale", async () => {
    serve(SENT);
    renderEditor('/crm-mailing-detail/7');
    // The first render of a test file is slow on a loaded machine: more than findBy's default second.
    expect(await screen.findByRole('definition', { name: 'Recipients' }, { timeout: 5_000 })).toHaveTextContent(
      (1234).toLocaleString(),
    );
    expect(figure('Delivered')).toHaveTextContent((1200).toLocaleString());
    expect(figure('Failed')).toHaveTextContent('30');
    expect(figure('Bounced')).toHaveTextContent('4');
    expect(figure('Unique opens')).toHaveTextContent('12 (+3 machine)');
    expect(figure('Clicks')).toHaveTextContent('5 (9 total)');
    expect(figure('Unsubscribes')).toHaveTextContent('2');
    expect(figure('Open rate')).toHaveTextContent('0.010');
    expect(sent('/api/crm-mailing/7/stats')).toHaveLength(1);
  });

  it('leaves machine opens out when there are none', async () => {
    serve(SENT, { ...STATS, uniqueOpens: 1, machineOpens: 0 });
    renderEditor('/crm-mailing-detail/7');
    expect(await screen.findByRole('definition', { name: 'Unique opens' })).toHaveTextContent(/^1$/);
  });

  it('warns with the message when delivery is paused', async () => {
    serve({ ...SENT, delivery: 'paused', deliveryMessage: 'The mail server refused the sender' });
    renderEditor('/crm-mailing-detail/7');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Delivery paused');
    expect(alert).toHaveTextContent('The mail server refused the sender');
  });

  it('resumes a paused send', async () => {
    serve({ ...SENT, delivery: 'paused', deliveryMessage: 'Paused: the mail server refused every recent message.' });
    server.use(
      http.post(`/api/crm-mailing/${SENT.id}/resume`, () =>
        HttpResponse.json({ ...SENT, delivery: 'sending', deliveryMessage: null }),
      ),
    );
    renderEditor('/crm-mailing-detail/7');
    await userEvent.click(await screen.findByRole('button', { name: 'Resume sending' }));
    expect(await screen.findByText(/figures refresh every 5 seconds/)).toBeInTheDocument();
    expect(sent('/api/crm-mailing/7/resume').some((r) => r.method === 'POST')).toBe(true);
  });

  it('refreshes the figures every 5 seconds while sending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      serve({ ...SENT, delivery: 'sending' });
      renderEditor('/crm-mailing-detail/7');
      expect(await screen.findByRole('definition', { name: 'Recipients' })).toBeInTheDocument();
      expect(screen.getByText(/figures refresh every 5 seconds/)).toBeInTheDocument();
      const statsCalls = () => sent('/api/crm-mailing/7/stats').length;
      expect(statsCalls()).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(5_100));
      await waitFor(() => expect(statsCalls()).toBe(2));
    } finally {
      vi.useRealTimers();
    }
  });
});

