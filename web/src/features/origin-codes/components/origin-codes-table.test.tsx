import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { OriginCodeCount } from '@/api/gen/model';
import { sent, server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { OriginCodesTable } from './origin-codes-table';

describe('OriginCodesTable', () => {
  it('lists each origin code with its contact count and created date in the browser locale', async () => {
    const codes: OriginCodeCount[] = [
      { id: 1, name: 'Rally 2024', label: 'Rally 2024', contactCount: 1234567, created: '2026-01-02T03:04:05Z' },
      { id: 2, name: 'Web form', label: 'Web form', contactCount: 0, created: '2026-02-03T04:05:06Z' },
    ];
    server.use(http.all('*', () => HttpResponse.json(codes)));
    renderWithProviders(<OriginCodesTable />);
    const row = (await screen.findByText('Rally 2024')).closest('tr')!;
    expect(within(row).getByText((1234567).toLocaleString())).toBeInTheDocument();
    expect(within(row).getByText(new Date(codes[0].created).toLocaleDateString())).toBeInTheDocument();
    expect(within(screen.getByText('Web form').closest('tr')!).getByText('0')).toBeInTheDocument();
    expect(sent()[0].url).toBe('/api/external-origin-code');
  });

  it('says so when there are none', async () => {
    server.use(http.all('*', () => HttpResponse.json([])));
    renderWithProviders(<OriginCodesTable />);
    expect(await screen.findByText('No origin codes yet.')).toBeInTheDocument();
  });
});
