import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { sent, server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { MAILING } from '../testing/mailings-server';
import { CrmMailingsTable } from './crm-mailings-table';

describe('CrmMailingsTable', () => {
  it('shows the derived status, open rate with 3 decimals and recipients', async () => {
    server.use(
      http.get('/api/crm-mailing', () =>
        HttpResponse.json([
          MAILING,
          { ...MAILING, id: 8, name: 'May appeal', isDraft: false, sendAttempt: '2026-05-02T10:00:00Z', openCount: 1, recipCount: 3 },
          { ...MAILING, id: 9, name: 'July appeal', isDraft: false },
        ]),
      ),
    );
    renderWithProviders(<CrmMailingsTable />);
    const draft = (await screen.findByRole('link', { name: 'June appeal' })).closest('tr')!;
    expect(within(draft).getByText('DRAFT')).toBeInTheDocument();
    expect(within(draft).getByText('0.000')).toBeInTheDocument();
    expect(within(draft).getByText('Help us in June')).toBeInTheDocument();
    expect(within(draft).getByText(new Date(MAILING.sendTime!).toLocaleString())).toBeInTheDocument();
    const sentRow = screen.getByRole('link', { name: 'May appeal' }).closest('tr')!;
    expect(sentRow).toHaveTextContent('SENT');
    expect(within(sentRow).getByText('0.333')).toBeInTheDocument();
    expect(within(sentRow).getByText('3')).toBeInTheDocument();
    const confirmed = screen.getByRole('link', { name: 'July appeal' });
    expect(confirmed).toHaveAttribute('href', '/crm-mailing-detail/9');
    expect(confirmed.closest('tr')).toHaveTextContent('CONFIRMED');
    expect(sent()[0].url).toBe('/api/crm-mailing');
  });

  it('leaves out the money columns when the answer carries no money figures (no pageContributions or pagePerformance)', async () => {
    const { revenue: _r, gifts: _g, donors: _d, responseRate: _x, rpm: _p, ...withoutMoney } = MAILING;
    server.use(http.get('/api/crm-mailing', () => HttpResponse.json([withoutMoney])));
    renderWithProviders(<CrmMailingsTable />);
    expect(await screen.findByRole('link', { name: 'June appeal' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Recipients' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Revenue' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'RPM' })).not.toBeInTheDocument();
  });
});
