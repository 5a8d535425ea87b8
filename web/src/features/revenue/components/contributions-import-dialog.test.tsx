import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { jsonResponse, renderWithProviders } from '@/test/utils';
import { ContributionsImportDialog } from './contributions-import-dialog';

const fetchMock = vi.fn<typeof fetch>();

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
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  fetchMock.mockImplementation((input, init) => {
    const url = String(input);
    if (url.startsWith('/api/contributions/import/fields')) return Promise.resolve(jsonResponse(FIELDS));
    if (url.startsWith('/api/contributions/import') && init?.method === 'POST')
      return Promise.resolve(jsonResponse(JOB, 202));
    return Promise.resolve(jsonResponse({ message: 'Not found' }, 404));
  });
});
afterEach(() =>
  act(() => {
    clearSnacks();
    resetTrackedJobs();
  }),
);

const posted = () => fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')![1]!.body as FormData;

describe('ContributionsImportDialog', () => {
  it('imports an ActBlue export as a job and closes', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ContributionsImportDialog show onClose={onClose} />);
    expect(screen.getByRole('radio', { name: 'ActBlue' })).toBeChecked();
    const submit = screen.getByRole('button', { name: 'Import' });
    expect(submit).toBeDisabled();
    await userEvent.upload(screen.getByLabelText('File'), new File(['Lineitem ID\n1\n'], 'paid.csv'));
    await userEvent.click(submit);
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posted().get('platform')).toBe('actblue');
    expect((posted().get('file') as File).name).toBe('paid.csv');
    expect(posted().get('mapping')).toBeNull();
    expect(getTrackedJobs().map((j) => j.id)).toEqual([JOB.id]);
  });

  it('maps another platform’s columns and needs line item, date and amount', async () => {
    renderWithProviders(<ContributionsImportDialog show onClose={vi.fn()} />);
    await userEvent.click(screen.getByRole('radio', { name: 'Other' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await userEvent.upload(
      screen.getByLabelText('File'),
      new File(['Lineitem ID,Date,Total\n1,2026-01-01,5\n'], 'other.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByText('Map a column to Amount')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Total'), 'amount');
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    expect(posted().get('platform')).toBe('mapped');
    expect(JSON.parse(posted().get('mapping') as string)).toEqual({
      'Lineitem ID': 'line_item_id',
      Date: 'date',
      Total: 'amount',
    });
  });
});
