import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { appendedFileNames, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { NgpImportDialog } from './ngp-import-dialog';

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
  server.use(http.post('/api/contacts/ngp-import', () => HttpResponse.json(JOB, { status: 202 })));
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
    const fileName = appendedFileNames();
    await userEvent.click(submit);
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    await settled();
    const post = sentOnce('POST');
    expect(post.url).toBe(url);
    const body = post.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('file')).toBeInstanceOf(File);
    expect(fileName('file')).toBe('saved.txt');
    // The app leaves Content-Type to fetch, which adds the multipart boundary.
    expect(post.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(getTrackedJobs().map((j) => j.id)).toEqual([JOB.id]);
  });
});
