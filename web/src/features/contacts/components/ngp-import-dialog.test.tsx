import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { jsonResponse, renderWithProviders } from '@/test/utils';
import { NgpImportDialog } from './ngp-import-dialog';

const fetchMock = vi.fn<typeof fetch>();

const JOB: Job = {
  id: 42,
  _id: 42,
  label: 'NGP Import',
  command: 'ngp-import',
  status: 'queued',
  progress: 0,
  completed: false,
  is_active: true,
  created: '2026-03-04T10:20:30Z',
  updated: '2026-03-04T10:20:30Z',
  user: { id: 1 },
};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  fetchMock.mockImplementation((input, init) => {
    if (String(input).startsWith('/api/contacts/ngp-import') && init?.method === 'POST')
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

describe('NgpImportDialog', () => {
  it.each([
    { actives: '90 day', url: '/api/contacts/ngp-import?days=90' },
    { actives: 'None', url: '/api/contacts/ngp-import' },
  ])('imports the file with Actives $actives, starts the job and closes', async ({ actives, url }) => {
    const onClose = vi.fn();
    renderWithProviders(<NgpImportDialog show onClose={onClose} />);
    expect(
      screen.getByText(/VANID, First, Last, Date Created, OriginCodeName, PreferredEmail/),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '90 day' })).toBeChecked();
    const fileInput = screen.getByLabelText('File');
    expect(fileInput).toHaveAttribute('accept', '.csv,.xls,.xlsx,.txt');
    const submit = screen.getByRole('button', { name: 'Import' });
    expect(submit).toBeDisabled();
    await userEvent.upload(fileInput, new File(['VANID\tFirst\n1\tAnn\n'], 'saved.txt', { type: 'text/plain' }));
    if (actives === 'None') await userEvent.click(screen.getByRole('radio', { name: 'None' }));
    await userEvent.click(submit);
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(String(post[0])).toBe(url);
    const body = post[1]!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe('saved.txt');
    expect(new Headers(post[1]!.headers).has('Content-Type')).toBe(false);
    expect(getTrackedJobs().map((j) => j.id)).toEqual([JOB.id]);
  });
});
