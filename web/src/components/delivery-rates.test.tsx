import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { formatRate, providerName } from '@/lib/delivery-rates';
import { sentOnce, server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { DeliveryRates } from './delivery-rates';

describe('DeliveryRates', () => {
  it('shows each provider with its bounce and complaint rates as percents', async () => {
    server.use(
      http.get('/api/delivery-rates', () =>
        HttpResponse.json([
          {
            group: 'gmail',
            label: null,
            sent: 2000,
            delivered: 1990,
            hardBounced: 10,
            softBounced: 4,
            complained: 8,
            hardBounceRate: '0.0050',
            softBounceRate: '0.0020',
            complaintRate: '0.0040',
          },
        ]),
      ),
    );
    renderWithProviders(<DeliveryRates by="provider" mailingId={9} label="Rates" />);
    const table = await screen.findByRole('table', { name: 'Rates' });
    const row = within(table).getByText('Gmail').closest('tr')!;
    expect(within(row).getByText('0.50 % (10)')).toBeInTheDocument();
    expect(within(row).getByText('0.20 % (4)')).toBeInTheDocument();
    expect(within(row).getByText('0.40 % (8)')).toBeInTheDocument();
    expect(sentOnce('GET', '/api/delivery-rates').url).toBe('/api/delivery-rates?by=provider&mailingId=9');
  });

  it('formats rates and names providers', () => {
    expect(formatRate('0.0042')).toBe('0.42 %');
    expect(formatRate(null)).toBe('—');
    expect(providerName('yahoo')).toBe('Yahoo / AOL');
    expect(providerName('microsoft')).toBe('Microsoft');
  });
});
