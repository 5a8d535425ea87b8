import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { CrmList, Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { sent, sentOnce, server, settled } from '@/test/msw';
import { queriesSettled, renderWithProviders } from '@/test/utils';
import { CrmListAddForm } from './crm-list-add-form';
import { CrmListDetail } from './crm-list-detail';
import { CrmListsTable } from './crm-lists-table';

const LIST: CrmList = {
  id: 7,
  name: 'Big donors',
  count: 1234567,
  created: '2026-03-04T10:20:30Z',
  kind: 'query',
  originCodes: [{ id: 4, name: 'Rally 2024', label: 'Rally 2024' }],
};

const JOB: Job = {
  id: 31,
  _id: 31,
  label: 'CRM List Upload',
  command: 'crm-list-upload',
  status: 'queued',
  progress: 0,
  completed: false,
  is_active: true,
  created: '2026-03-04T10:20:30Z',
  updated: '2026-03-04T10:20:30Z',
  user: { id: 1 },
};

/** The signed-in user: pageContacts opens uploads and exports (contacts in bulk). */
const me = (permissions: string[]) => ({
  id: 1,
  kind: 'universal',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '',
  twoFactorMethod: 'email',
  authenticatorEnrolled: false,
  permissions,
  universalPermissions: [],
  canSwitchClient: true,
});

afterEach(() =>
  act(() => {
    clearSnacks();
    resetTrackedJobs();
  }),
);

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

describe('CrmListsTable', () => {
  it('links each name to its detail page and formats count and date in the browser locale', async () => {
    server.use(http.get('/api/crm-list', () => HttpResponse.json([LIST])));
    renderWithProviders(<CrmListsTable />);
    const link = await screen.findByRole('link', { name: 'Big donors' });
    expect(link).toHaveAttribute('href', '/crm-list-detail/7');
    const row = link.closest('tr')!;
    expect(within(row).getByText((1234567).toLocaleString())).toBeInTheDocument();
    expect(within(row).getByText(new Date(LIST.created).toLocaleDateString())).toBeInTheDocument();
    expect(sent()[0].url).toBe('/api/crm-list');
  });

  it('says so when there are no lists', async () => {
    server.use(http.get('/api/crm-list', () => HttpResponse.json([])));
    renderWithProviders(<CrmListsTable />);
    expect(await screen.findByText('No lists yet.')).toBeInTheDocument();
  });
});

describe('CrmListAddForm', () => {
  it('creates a query list, announces it and opens its detail page', async () => {
    server.use(
      http.get('/api/external-origin-code/search', () => HttpResponse.json(LIST.originCodes)),
      http.post('/api/crm-list', () => HttpResponse.json(LIST, { status: 201 })),
    );
    renderWithProviders(
      <>
        <Routes>
          <Route path="/crm-list-add" element={<CrmListAddForm />} />
          <Route path="*" element={null} />
        </Routes>
        <Location />
      </>,
      { route: '/crm-list-add' },
    );
    const submit = screen.getByRole('button', { name: 'Create List' });
    expect(screen.getByRole('radio', { name: 'Query' })).toBeChecked();
    expect(submit).toBeDisabled();
    await userEvent.type(screen.getByLabelText('List name'), 'Big donors');
    await userEvent.click(screen.getByRole('combobox', { name: 'Origin codes' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Rally 2024' }));
    expect(submit).toBeEnabled();
    await userEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-list-detail/7'));
    expect(await screen.findByText('List created')).toBeInTheDocument();
    await settled();
    expect(sentOnce('POST').body).toEqual({ name: 'Big donors', originCodes: [4] });
  });

  it('shows its success message for the CRM snackbar duration, 3000 ms (issue 17, bug 4)', async () => {
    server.use(
      http.get('/api/external-origin-code/search', () => HttpResponse.json(LIST.originCodes)),
      http.post('/api/crm-list', () => HttpResponse.json(LIST, { status: 201 })),
    );
    renderWithProviders(<CrmListAddForm />, { route: '/crm-list-add' });
    await userEvent.type(screen.getByLabelText('List name'), 'Big donors');
    await userEvent.click(screen.getByRole('combobox', { name: 'Origin codes' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Rally 2024' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create List' }));
    await screen.findByText('List created');
    const shown = Date.now();
    await waitFor(() => expect(screen.queryByText('List created')).not.toBeInTheDocument(), { timeout: 4500 });
    // 3000 ms plus the toast's fade-out; the other alerts' 5 s would still be showing.
    expect(Date.now() - shown).toBeGreaterThanOrEqual(2900);
    expect(Date.now() - shown).toBeLessThan(4500);
  }, 10_000);

  it.each([
    { switched: false, query: 'name=Uploaded+list' },
    { switched: true, query: 'name=Uploaded+list&originCode=Spring+drive&createNewContacts=1&overwriteOriginCode=1' },
  ])('uploads a file as multipart and starts the job (switches on: $switched)', async ({ switched, query }) => {
    server.use(
      http.post('/api/crm-list/upload', () => HttpResponse.json(JOB, { status: 202 })),
      http.get('/auth-api/session/me', () => HttpResponse.json(me(['pageContacts']))),
      http.all('*', () => HttpResponse.json([])),
    );
    renderWithProviders(
      <>
        <Routes>
          <Route path="/crm-list-add" element={<CrmListAddForm />} />
          <Route path="*" element={null} />
        </Routes>
        <Location />
      </>,
      { route: '/crm-list-add' },
    );
    await userEvent.click(await screen.findByRole('radio', { name: 'Upload File' }));
    expect(screen.queryByRole('combobox', { name: 'Origin codes' })).not.toBeInTheDocument();
    expect(screen.getByText("The file should include an 'Email' column.")).toBeInTheDocument();
    const fileInput = screen.getByLabelText('File');
    expect(fileInput).toHaveAttribute('accept', '.csv,.xls,.xlsx');
    const submit = screen.getByRole('button', { name: 'Create List' });
    await userEvent.type(screen.getByLabelText('List name'), 'Uploaded list');
    expect(submit).toBeDisabled();
    const file = new File(['Email\na@b.c\n'], 'people.csv', { type: 'text/csv' });
    await userEvent.upload(fileInput, file);
    expect(submit).toBeEnabled();
    if (switched) {
      await userEvent.click(screen.getByRole('switch', { name: 'Create new contacts' }));
      await userEvent.click(screen.getByRole('switch', { name: 'Overwrite origin code' }));
      await userEvent.type(screen.getByLabelText('Origin code'), 'Spring drive');
    }
    const append = vi.spyOn(FormData.prototype, 'append');
    await userEvent.click(submit);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/crm-lists$/));
    expect(await screen.findByText('Starting upload')).toBeInTheDocument();
    await settled();
    const post = sentOnce('POST');
    expect(post.url).toBe(`/api/crm-list/upload?${query}`);
    const body = post.body;
    expect(body).toBeInstanceOf(FormData);
    expect((body as FormData).get('file')).toBeInstanceOf(File);
    expect(append.mock.calls.find(([name]) => name === 'file')?.[1]).toHaveProperty('name', 'people.csv');
    // The app leaves Content-Type to fetch, which adds the multipart boundary.
    expect(post.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(getTrackedJobs().map((j) => j.id)).toEqual([JOB.id]);
  });
});

describe('CrmListDetail', () => {
  it('shows the list, exports it as "<name>.csv" and deletes it after confirmation', async () => {
    server.use(
      http.delete('/api/crm-list/7', () => new HttpResponse(null, { status: 204 })),
      http.get('/api/crm-list/7', () => HttpResponse.json(LIST)),
      http.get('/api/crm-list/7/members', () => HttpResponse.json({ members: [], total: 0, page: 1, pageSize: 25 })),
      http.get('/api/crm-list/7/download', () =>
        HttpResponse.text('Email\na@b.c\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
      ),
      http.get('/auth-api/session/me', () => HttpResponse.json(me(['pageContacts']))),
      http.all('*', () => HttpResponse.json([])),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:list');
    const { createObjectURL: realCreate, revokeObjectURL: realRevoke } = URL;
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    onTestFinished(() => {
      URL.createObjectURL = realCreate;
      URL.revokeObjectURL = realRevoke;
    });
    let downloaded = '';
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloaded = this.download;
    });
    onTestFinished(() => click.mockRestore());
    renderWithProviders(
      <>
        <Routes>
          <Route path="/crm-list-detail/7" element={<CrmListDetail id={7} />} />
          <Route path="*" element={null} />
        </Routes>
        <Location />
      </>,
      { route: '/crm-list-detail/7' },
    );
    expect(await screen.findByRole('heading', { name: 'Big donors' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'breadcrumb' })).toHaveTextContent('CRMListsBig donors');
    expect(screen.getByText((1234567).toLocaleString())).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloaded).toBe('Big donors.csv'));
    const blob = createObjectURL.mock.calls[0][0];
    expect(blob.type).toBe('text/csv');

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm delete' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-lists'));
    expect(sent('/api/crm-list/7').some((r) => r.url === '/api/crm-list/7' && r.method === 'DELETE')).toBe(true);
  });
});

describe('contacts in bulk (issue 11, item 8)', () => {
  it('offers neither Upload File nor Export without pageContacts, as the server refuses both', async () => {
    server.use(
      http.get('/api/crm-list/7', () => HttpResponse.json(LIST)),
      http.get('/auth-api/session/me', () => HttpResponse.json(me(['view user']))),
      http.all('*', () => HttpResponse.json([])),
    );
    const { queryClient } = renderWithProviders(
      <>
        <CrmListAddForm />
        <CrmListDetail id={7} />
      </>,
    );
    expect(await screen.findByRole('heading', { name: 'Big donors' })).toBeInTheDocument();
    await waitFor(() => expect(sent().some((r) => r.url === '/auth-api/session/me')).toBe(true));
    await queriesSettled(queryClient);
    expect(screen.getByRole('radio', { name: 'Query' })).toBeChecked();
    expect(screen.queryByRole('radio', { name: 'Upload File' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export' })).not.toBeInTheDocument();
  });
});
