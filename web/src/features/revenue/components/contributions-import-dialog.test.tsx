import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { appendedFileNames, sent, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ContributionsImportDialog } from './contributions-import-dialog';

const JOB: Job = {
  id: 7,
  _id: 7,
  label: 'Contributions Import',
  command: 'contribution-import',
  status: 'queued',
  progress: 0,
  completed: false,
  is_active: true,
  created: '2026-03-04T10:20:30Z',
  updated: '2026-03-04T10:20:30Z',
  user: { id: 1 },
};

const FIELDS = [
  { id: 'line_item_id', label: 'Lineitem ID', required: true },
  { id: 'date', label: 'Date', required: true },
  { id: 'amount', label: 'Amount', required: true },
  { id: 'email', label: 'Donor Email', required: false },
];

beforeEach(() => {
  server.use(
    http.get('/api/contributions/import/fields', () => HttpResponse.json(FIELDS)),
    http.post('/api/contributions/import', () => HttpResponse.json(JOB, { status: 202 })),
  );
});
afterEach(() =>
  act(() => {
    clearSnacks();
    resetTrackedJobs();
  }),
);

const posted = async () => {
  await settled();
  return sentOnce('POST').body as FormData;
};

describe('ContributionsImportDialog', () => {
  it('imports an ActBlue export as a job and closes', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ContributionsImportDialog show onClose={onClose} />);
    expect(screen.getByRole('radio', { name: 'ActBlue' })).toBeChecked();
    const submit = screen.getByRole('button', { name: 'Import' });
    expect(submit).toBeDisabled();
    await userEvent.upload(screen.getByLabelText('File'), new File(['Lineitem ID\n1\n'], 'paid.csv'));
    const fileName = appendedFileNames();
    await userEvent.click(submit);
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect((await posted()).get('platform')).toBe('actblue');
    expect((await posted()).get('file')).toBeInstanceOf(File);
    expect(fileName('file')).toBe('paid.csv');
    expect((await posted()).get('mapping')).toBeNull();
    expect(getTrackedJobs().map((j) => j.id)).toEqual([JOB.id]);
  });

  it('maps another platform’s columns and needs line item, date and amount', async () => {
    renderWithProviders(<ContributionsImportDialog show onClose={vi.fn()} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Other' }));
    await waitFor(() => expect(sent().length).toBeGreaterThan(0));
    await userEvent.upload(
      screen.getByLabelText('File'),
      new File(['Lineitem ID,Date,Total\n1,2026-01-01,5\n'], 'other.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByText('Map a column to Amount')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Total'), 'amount');
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    expect((await posted()).get('platform')).toBe('mapped');
    expect(JSON.parse((await posted()).get('mapping') as string)).toEqual({
      'Lineitem ID': 'line_item_id',
      Date: 'date',
      Total: 'amount',
    });
  });
});
