import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppSettings } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ActblueWebhookForm } from './actblue-webhook-form';
import { RevenueSettingsForm } from './revenue-settings-form';

const SETTINGS: AppSettings = {
  id: 1,
  client_id: 7,
  client_name: 'Demo for Congress',
  client_short: 'demo',
  mediaEnabled: false,
  timeZone: 'America/New_York',
  actblueOriginCode: 'actblue',
  winredOriginCode: 'winred',
  refcodePattern: '{channel}_{date:yyyymmdd}_{campaign}_{variant}',
  mailingRefcodePattern: 'em_{yyyymmdd}_{mailing}_{variant}',
  attributionWindowDays: 3,
  donationDomains: [],
  fiscalYearStart: 1,
  actblueWebhookUsername: null,
  actblueWebhookPasswordSet: false,
  softBounceLimit: 3,
  softBounceDays: 30,
  guardAfterDelivered: 2000,
  complaintPausePercent: '0.3',
  hardBouncePausePercent: '5',
};

const patchBody = async () => {
  await settled();
  return sent().find((r) => r.method === 'PATCH')?.body as Record<string, unknown> | undefined;
};

beforeEach(() => {
  server.use(
    http.all('*', async ({ request }) =>
      HttpResponse.json({ ...SETTINGS, ...(JSON.parse((await request.text()) || '{}') as object) }),
    ),
  );
});
afterEach(() => act(() => clearSnacks()));

describe('RevenueSettingsForm', () => {
  it('saves the zone, fiscal year, patterns, window and donation domains', async () => {
    renderWithProviders(<RevenueSettingsForm settings={SETTINGS} />);
    await userEvent.selectOptions(screen.getByLabelText('Fiscal year starts in'), 'July');
    const pattern = screen.getByLabelText('Refcode pattern');
    await userEvent.clear(pattern);
    await userEvent.type(pattern, '{{channel}-{{campaign}');
    const days = screen.getByLabelText('Click attribution window (days)');
    await userEvent.clear(days);
    await userEvent.type(days, '7');
    await userEvent.type(screen.getByLabelText('Other donation domains'), 'give.example.org\nsecure.example.net');
    await userEvent.click(screen.getByRole('button', { name: 'Save revenue settings' }));
    expect(await screen.findByText('Revenue settings saved')).toBeInTheDocument();
    expect(await patchBody()).toEqual({
      timeZone: 'America/New_York',
      fiscalYearStart: 7,
      actblueOriginCode: 'actblue',
      winredOriginCode: 'winred',
      refcodePattern: '{channel}-{campaign}',
      mailingRefcodePattern: 'em_{yyyymmdd}_{mailing}_{variant}',
      attributionWindowDays: 7,
      donationDomains: ['give.example.org', 'secure.example.net'],
    });
    // Typing re-renders a select of every time zone on each key: slow on a loaded machine, not wrong.
  }, 30_000);

  it('keeps Save disabled and says why for a window outside 0–90 days', async () => {
    renderWithProviders(<RevenueSettingsForm settings={SETTINGS} />);
    const days = screen.getByLabelText('Click attribution window (days)');
    await userEvent.clear(days);
    await userEvent.type(days, '120');
    expect(screen.getByText('Enter a whole number of days from 0 to 90')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Save revenue settings' })).toBeDisabled();
  });
});

describe('ActblueWebhookForm', () => {
  it('shows the address, sets credentials and never sends a short password', async () => {
    renderWithProviders(<ActblueWebhookForm settings={SETTINGS} />);
    expect(screen.getByLabelText('Webhook address')).toHaveValue(`${window.location.origin}/api/webhooks/actblue/demo`);
    expect(screen.getByText(/^Off:/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('User name'), 'actblue');
    await userEvent.type(screen.getByLabelText('Password'), 'too-short');
    expect(screen.getByRole('button', { name: 'Save webhook credentials' })).toBeDisabled();
    expect(screen.getByText('The webhook password needs at least 12 characters')).toBeVisible();
    await userEvent.type(screen.getByLabelText('Password'), '-but-now-long');
    server.use(
      http.all('*', () => HttpResponse.json({ ...SETTINGS, actblueWebhookUsername: 'actblue', actblueWebhookPasswordSet: true })),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save webhook credentials' }));
    expect(await screen.findByText('Webhook credentials saved')).toBeInTheDocument();
    expect(await patchBody()).toEqual({ actblueWebhookUsername: 'actblue', actblueWebhookPassword: 'too-short-but-now-long' });
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('turns the webhook off by clearing the user name', async () => {
    renderWithProviders(
      <ActblueWebhookForm settings={{ ...SETTINGS, actblueWebhookUsername: 'actblue', actblueWebhookPasswordSet: true }} />,
    );
    expect(screen.getByText('On: ActBlue signs in as actblue.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Webhook turned off')).toBeInTheDocument();
    expect(await patchBody()).toEqual({ actblueWebhookUsername: '' });
  });
});
