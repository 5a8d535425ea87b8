import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainCheck, SenderDomain } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { dnsLine, isDomain, SenderDomainsCard } from './sender-domains-card';

const RIVER: SenderDomain = {
  id: 1,
  domain: 'river.org',
  bounceDomain: null,
  selector: 'compass',
  algorithm: 'rsa',
  dnsName: 'compass._domainkey.river.org',
  dnsRecord: 'v=DKIM1; k=rsa; p=MIIBIjANBg',
  warmupStart: null,
  warmupFirstDayCap: null,
  warmupGrowthPercent: 50,
  warmupCapToday: null,
  created: '2026-11-01T10:00:00Z',
};

afterEach(() => act(() => clearSnacks()));

describe('SenderDomainsCard', () => {
  it('adds a domain and shows the DNS record to publish', async () => {
    let domains: SenderDomain[] = [];
    server.use(
      http.get('/api/sender-domains', () => HttpResponse.json(domains)),
      http.post('/api/sender-domains', () => {
        domains = [{ ...RIVER, algorithm: 'ed25519', dnsRecord: 'v=DKIM1; k=ed25519; p=abc=' }];
        return HttpResponse.json(domains[0], { status: 201 });
      }),
    );
    renderWithProviders(<SenderDomainsCard />);
    expect(await screen.findByText('No sender domains yet: mail is sent unsigned.')).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add domain' });
    await userEvent.type(screen.getByLabelText('Domain'), 'river');
    expect(add).toBeDisabled();
    expect(screen.getByLabelText('Domain')).toHaveAccessibleDescription('Not a domain name');
    await userEvent.type(screen.getByLabelText('Domain'), '.org');
    await userEvent.selectOptions(screen.getByLabelText('DKIM key'), 'Ed25519');
    await userEvent.click(add);
    expect(await screen.findByText('river.org added: publish its DKIM record')).toBeInTheDocument();
    await settled();
    expect(sentOnce('POST').body).toEqual({ domain: 'river.org', algorithm: 'ed25519', selector: 'compass' });
    expect(await screen.findByLabelText('DKIM record of river.org')).toHaveValue(
      'compass._domainkey.river.org  TXT  "v=DKIM1; k=ed25519; p=abc="',
    );
    const row = within(screen.getByRole('table', { name: 'Sender domains' })).getByText('river.org').closest('tr')!;
    expect(row).toHaveTextContent('Ed25519, selector compass');
    expect(row).toHaveTextContent('No warm-up');
  });

  it('runs the domain check and says what to change', async () => {
    const check: DomainCheck = {
      senderDomainId: 1,
      domain: 'river.org',
      spf: { name: 'river.org', found: ['v=spf1 -all'], status: 'ok', note: 'One SPF record is published.' },
      dkim: { name: 'compass._domainkey.river.org', found: [], status: 'missing', note: 'No record is published.' },
      dmarc: { name: '_dmarc.river.org', found: [], status: 'missing', note: 'No record is published.' },
      aligned: false,
      advice: ['Publish a DMARC record at _dmarc.river.org.'],
    };
    server.use(
      http.get('/api/sender-domains', () => HttpResponse.json([RIVER])),
      http.get('/api/sender-domains/1/check', () => HttpResponse.json(check)),
    );
    renderWithProviders(<SenderDomainsCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Check river.org' }));
    const result = await screen.findByRole('region', { name: 'Domain check of river.org' });
    const dkim = within(result).getByRole('rowheader', { name: 'DKIM' }).closest('tr')!;
    expect(dkim).toHaveTextContent('Missing');
    expect(within(result).getByRole('rowheader', { name: 'SPF' }).closest('tr')!).toHaveTextContent('v=spf1 -all');
    expect(result).toHaveTextContent('Not aligned');
    expect(within(result).getByRole('list', { name: 'What to change' })).toHaveTextContent(
      'Publish a DMARC record at _dmarc.river.org.',
    );
  });

  it('saves a warm-up plan and shows today\'s cap', async () => {
    let domains = [RIVER];
    server.use(
      http.get('/api/sender-domains', () => HttpResponse.json(domains)),
      http.put('/api/sender-domains/1/warmup', () => {
        domains = [{ ...RIVER, warmupStart: '2026-11-24', warmupFirstDayCap: 1000, warmupCapToday: 2250 }];
        return HttpResponse.json(domains[0]);
      }),
    );
    renderWithProviders(<SenderDomainsCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Warm-up of river.org' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Start date'), '2026-11-24');
    await userEvent.type(within(dialog).getByLabelText("First day's cap (messages)"), '1000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save plan' }));
    expect(await screen.findByText('Warm-up plan saved')).toBeInTheDocument();
    expect(sent().find((r) => r.method === 'PUT')?.body).toEqual({ start: '2026-11-24', firstDayCap: 1000, growthPercent: 50 });
    const row = within(screen.getByRole('table', { name: 'Sender domains' })).getByText('river.org').closest('tr')!;
    expect(await within(row).findByText((2250).toLocaleString())).toBeInTheDocument();
  });

  it('knows a domain name and writes the record line', () => {
    expect(isDomain('mail.example.org')).toBe(true);
    expect(isDomain('example')).toBe(false);
    expect(isDomain('exa mple.org')).toBe(false);
    expect(dnsLine(RIVER)).toBe('compass._domainkey.river.org  TXT  "v=DKIM1; k=rsa; p=MIIBIjANBg"');
  });
});
