import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ExternalMailingsImportDialog } from './external-mailings-import-dialog';

const JOB: Job = {
  id: 9,
  _id: 9,
  label: 'External Mailings Import',
  command: 'external-mailings-import',
  status: 'queued',
  progress: 0,
  completed: false,
  is_active: true,
  created: '2026-03-04T10:20:30Z',
  updated: '2026-03-04T10:20:30Z',
  user: { id: 1 },
};

const FIELDS = [
  { id: 'name', label: 'Name', required: true, synonyms: ['campaign', 'campaignname'] },
  { id: 'sent_on', label: 'Send date', required: true, synonyms: ['date', 'sentat'] },
  { id: 'recipients', label: 'Recipients', required: false, synonyms: ['sent', 'emailssent'] },
  { id: 'opens', label: 'Opens', required: false, synonyms: ['uniqueopens'] },
];

beforeEach(() => {
  server.use(
    http.get('/api/external-mailings/import/fields', () => HttpResponse.json(FIELDS)),
    http.post('/api/external-mailings/import', () => HttpResponse.json(JOB, { status: 202 })),
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
const file = (text: string) => new File([text], 'sends.csv', { type: 'text/csv' });

describe('ExternalMailingsImportDialog', () => {
  it('pre-maps columns by their synonyms and imports the file as a job', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ExternalMailingsImportDialog show onClose={onClose} />);
    await waitFor(() => expect(screen.getByLabelText('File')).toBeEnabled());
    await userEvent.click(screen.getByRole('radio', { name: 'lemlist' }));
    await userEvent.upload(screen.getByLabelText('File'), file('Campaign Name,Sent At,Emails Sent,Unique Opens,Notes\nA,2030-03-04,10,2,x\n'));
    expect(await screen.findByLabelText('Campaign Name')).toHaveValue('name');
    expect(screen.getByLabelText('Sent At')).toHaveValue('sent_on');
    expect(screen.getByLabelText('Emails Sent')).toHaveValue('recipients');
    expect(screen.getByLabelText('Unique Opens')).toHaveValue('opens');
    expect(screen.getByLabelText('Notes')).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect((await posted()).get('platform')).toBe('lemlist');
    expect(JSON.parse((await posted()).get('mapping') as string)).toEqual({
      'Campaign Name': 'name',
      'Sent At': 'sent_on',
      'Emails Sent': 'recipients',
      'Unique Opens': 'opens',
    });
    expect(getTrackedJobs().map((j) => j.id)).toEqual([JOB.id]);
  });

  it('asks for a name and a send date column before it imports', async () => {
    renderWithProviders(<ExternalMailingsImportDialog show onClose={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('File')).toBeEnabled());
    await userEvent.upload(screen.getByLabelText('File'), file('Subject,When\nA,2030-03-04\n'));
    expect(await screen.findByText('Map a column to Name')).toBeInTheDocument();
    expect(screen.getByText('Map a column to Send date')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Subject'), 'name');
    await userEvent.selectOptions(screen.getByLabelText('When'), 'sent_on');
    expect(screen.queryByText(/Map a column to/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    expect((await posted()).get('platform')).toBe('esp');
  });

  it('refuses an Excel file, which cannot be mapped in the browser', async () => {
    renderWithProviders(<ExternalMailingsImportDialog show onClose={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('File')).toBeEnabled());
    await userEvent.upload(screen.getByLabelText('File'), new File(['x'], 'sends.xlsx'), { applyAccept: false });
    expect(await screen.findByText(/Only .csv and .txt files can be mapped/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });
});
