import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Me, SuppressionPage, SuppressionRow } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { splitAddresses } from '../utils';
import { SuppressionsPage } from './suppressions-page';

afterEach(() => act(() => clearSnacks()));

const BOUNCE: SuppressionRow = {
  id: 5,
  email: 'gone@example.org',
  reason: 'hard_bounce',
  reasonText: 'Hard bounce',
  source: 'dsn',
  created: '2026-11-20T10:00:00Z',
  mailingId: 12,
  mailingName: 'November appeal',
  statusCode: '5.1.1',
  diagnostic: '550 5.1.1 No such user',
  evidenceId: 77,
  note: null,
};

const page = (rows: SuppressionRow[]): SuppressionPage => ({ suppressions: rows, total: rows.length, page: 1, pageSize: 50 });

/** The signed-in user with `permissions` in this client. */
const me = (permissions: string[]): Me => ({
  id: 7,
  kind: 'client',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '',
  twoFactorMethod: 'email',
  authenticatorEnrolled: false,
  permissions,
  universalPermissions: [],
  canSwitchClient: false,
});

describe('SuppressionsPage', () => {
  it('offers lifting, import and export to administrators only', async () => {
    server.use(
      http.get('/auth-api/session/me', () => HttpResponse.json(me(['pageContacts']))),
      http.get('/api/suppressions', () => HttpResponse.json(page([BOUNCE]))),
    );
    renderWithProviders(<SuppressionsPage />);
    await screen.findByText('gone@example.org');
    expect(screen.getByRole('button', { name: 'Add addresses' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Lift gone@example.org' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import CSV' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  });

  it('lists each suppression with its reason, source, mailing and evidence', async () => {
    server.use(http.get('/api/suppressions', () => HttpResponse.json(page([BOUNCE]))));
    renderWithProviders(<SuppressionsPage />);
    const table = await screen.findByRole('table', { name: 'Suppressions' });
    const row = (await within(table).findByText('gone@example.org')).closest('tr')!;
    expect(within(row).getByText('Hard bounce')).toBeInTheDocument();
    expect(within(row).getByText('dsn')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'November appeal' })).toHaveAttribute('href', '/crm-mailing-detail/12');
    expect(within(row).getByText('5.1.1 550 5.1.1 No such user')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Download evidence' })).toBeInTheDocument();
  });

  it('searches by address and lifts one only after the confirmation', async () => {
    server.use(
      http.get('/auth-api/session/me', () => HttpResponse.json(me(['pageContacts', 'edit role']))),
      http.get('/api/suppressions', () => HttpResponse.json(page([BOUNCE]))),
      http.post('/api/suppressions/5/lift', () => new HttpResponse(null, { status: 204 })),
    );
    renderWithProviders(<SuppressionsPage />);
    await userEvent.type(screen.getByLabelText('Search suppressions'), 'gone');
    await waitFor(() => expect(sent('/api/suppressions').some((r) => r.url.includes('q=gone'))).toBe(true));
    await userEvent.click(await screen.findByRole('button', { name: 'Lift gone@example.org' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lift suppression' });
    expect(sent('/api/suppressions/5/lift')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, lift' }));
    expect(await screen.findByText('gone@example.org may be mailed again')).toBeInTheDocument();
    sentOnce('POST', '/api/suppressions/5/lift');
  });

  it('adds typed addresses and names the rows it did not take', async () => {
    server.use(
      http.get('/api/suppressions', () => HttpResponse.json(page([]))),
      http.post('/api/suppressions', () =>
        HttpResponse.json({
          added: 1,
          alreadySuppressed: 0,
          rejected: [{ row: 2, value: 'oops', reason: 'Not an e-mail address' }],
        }),
      ),
    );
    renderWithProviders(<SuppressionsPage />);
    expect(await screen.findByText('No address is suppressed.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add addresses' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add addresses' });
    await userEvent.type(within(dialog).getByLabelText('Addresses'), 'ann@example.org{enter}oops');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suppress' }));
    const summary = await within(dialog).findByRole('status');
    expect(summary).toHaveTextContent('1 added, 0 already suppressed, 1 not taken:');
    expect(summary).toHaveTextContent('Row 2: "oops" — Not an e-mail address');
    await settled();
    expect(sentOnce('POST', '/api/suppressions').body).toEqual({ emails: ['ann@example.org', 'oops'] });
  });
});

describe('splitAddresses', () => {
  it('takes one a line or separated by commas, semicolons or spaces', () => {
    expect(splitAddresses(' a@x.org\nb@x.org, c@x.org;d@x.org  \n\n')).toEqual(['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org']);
  });
});
