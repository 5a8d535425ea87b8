import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Contact, ContactPage, Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { appendedFileNames, sent, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ContactDetail } from './contact-detail';
import { ContactImportForm } from './contact-import-form';
import { ContactSearch } from './contact-search';

afterEach(() =>
  act(() => {
    clearSnacks();
    resetTrackedJobs();
  }),
);

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

const contact = (id: number, overrides: Partial<Contact> = {}): Contact => ({
  id,
  email: `person${id}@example.org`,
  firstName: 'Jane',
  lastName: `Doe ${id}`,
  subscription: 'subscribed',
  originCodeId: 4,
  originCodeName: 'Rally 2024',
  created: '2026-03-04T10:20:30Z',
  ...overrides,
});

const contactUrls = () => sent('/api/contacts').map((r) => new URL(r.url, 'http://x'));

describe('ContactSearch', () => {
  it('searches on the server with q and page, pages through results and links each row', async () => {
    server.use(
      http.all('*', ({ request }) => {
        const url = new URL(request.url);
        const page = Number(url.searchParams.get('page'));
        const body: ContactPage = {
          items: [contact(page * 100 + 1)],
          total: 1234,
          totalEstimated: false,
          page,
          pageSize: Number(url.searchParams.get('pageSize')),
        };
        return HttpResponse.json(body);
      }),
    );
    renderWithProviders(<ContactSearch />);

    const link = await screen.findByRole('link', { name: 'person101@example.org' });
    expect(link).toHaveAttribute('href', '/contacts/101');
    const row = link.closest('tr')!;
    expect(within(row).getByText('Jane Doe 101')).toBeInTheDocument();
    expect(within(row).getByText('Rally 2024')).toBeInTheDocument();
    expect(within(row).getByText('Subscribed')).toBeInTheDocument();
    expect(within(row).getByText(new Date('2026-03-04T10:20:30Z').toLocaleDateString())).toBeInTheDocument();
    expect(screen.getByText(`${(1234).toLocaleString()} contacts`)).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 50')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(contactUrls()[0].searchParams.get('q')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'person201@example.org' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 50')).toBeInTheDocument();
    expect(contactUrls().at(-1)!.searchParams.get('page')).toBe('2');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();

    // A new search starts again at page 1 and is sent once typing stops.
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search contacts' }), 'jane');
    await waitFor(() => expect(contactUrls().at(-1)!.searchParams.get('q')).toBe('jane'));
    const last = contactUrls().at(-1)!;
    expect(last.searchParams.get('page')).toBe('1');
    expect(last.searchParams.get('pageSize')).toBe('25');
    expect(contactUrls().filter((u) => u.searchParams.has('q')).map((u) => u.searchParams.get('q'))).toEqual(['jane']);
    expect(await screen.findByText('Page 1 of 50')).toBeInTheDocument();
  });

  it('disables Next on the last page', async () => {
    server.use(
      http.all('*', () =>
        HttpResponse.json({ items: [contact(1)], total: 1, totalEstimated: false, page: 1, pageSize: 25, next: null }),
      ),
    );
    renderWithProviders(<ContactSearch />);
    expect(await screen.findByText('Page 1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});

describe('ContactSearch at a large client', () => {
  it('says "about" for an estimated total and asks for later pages after the cursor it was given', async () => {
    server.use(
      http.all('*', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        const body: ContactPage = {
          items: [contact(page * 100 + 1)],
          total: 1_000_000,
          totalEstimated: true,
          page,
          pageSize: 25,
          next: `cursor-${page}`,
        };
        return HttpResponse.json(body);
      }),
    );
    renderWithProviders(<ContactSearch />);
    expect(await screen.findByText(`about ${(1_000_000).toLocaleString()} contacts`)).toBeInTheDocument();
    expect(screen.getByText(`Page 1 of about ${(40_000).toLocaleString()}`)).toBeInTheDocument();
    expect(contactUrls()[0].searchParams.get('after')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'person201@example.org' })).toBeInTheDocument();
    expect(contactUrls().at(-1)!.searchParams.get('after')).toBe('cursor-1');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'person301@example.org' })).toBeInTheDocument();
    expect(contactUrls().at(-1)!.searchParams.get('after')).toBe('cursor-2');
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('link', { name: 'person201@example.org' })).toBeInTheDocument();
    expect(screen.getByText(`Page 2 of about ${(40_000).toLocaleString()}`)).toBeInTheDocument();
  });
});

describe('ContactDetail', () => {
  it('shows the contact and links the lists it is in', async () => {
    server.use(
      http.all('*', () =>
        HttpResponse.json({
          contact: contact(7, { phone: '5551234567', vanid: 998877, subscription: 'bounced' }),
          lists: [{ id: 3, name: 'Big donors' }],
        }),
      ),
    );
    renderWithProviders(<ContactDetail id={7} />);
    expect(await screen.findByRole('heading', { name: 'person7@example.org' })).toBeInTheDocument();
    expect(sent()[0].url).toBe('/api/contacts/7');
    expect(screen.getByText('5551234567')).toBeInTheDocument();
    expect(screen.getByText('998877')).toBeInTheDocument();
    expect(screen.getByText('Bounced')).toBeInTheDocument();
    expect(screen.getByText(new Date('2026-03-04T10:20:30Z').toLocaleString())).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Big donors' })).toHaveAttribute('href', '/crm-list-detail/3');
  });

  it('says when the contact does not exist', async () => {
    server.use(http.all('*', () => HttpResponse.json({ message: 'Contact not found' }, { status: 404 })));
    renderWithProviders(<ContactDetail id={9} />);
    expect(await screen.findByText('Contact not found', { selector: '.alert' })).toBeInTheDocument();
  });
});

describe('ContactImportForm', () => {
  const JOB: Job = {
    id: 42,
    _id: 42,
    label: 'Contact import',
    command: 'contact-import',
    status: 'queued',
    progress: 0,
    completed: false,
    is_active: true,
    created: '2026-03-04T10:20:30Z',
    updated: '2026-03-04T10:20:30Z',
    user: { id: 1 },
  };

  it('maps the file columns, requires Email and sends the mapping JSON', async () => {
    server.use(
      http.get('/api/imports/fields', () =>
        HttpResponse.json([
          { id: 'email', label: 'Email' },
          { id: 'first_name', label: 'First name' },
          { id: 'vanid', label: 'VANID' },
        ]),
      ),
      http.post('/api/imports/contacts', () => HttpResponse.json(JOB, { status: 202 })),
    );
    const fileName = appendedFileNames();
    renderWithProviders(
      <>
        <Routes>
          <Route path="/contacts/import" element={<ContactImportForm />} />
          <Route path="*" element={null} />
        </Routes>
        <Location />
      </>,
      { route: '/contacts/import' },
    );
    const picker = screen.getByLabelText('File');
    await waitFor(() => expect(picker).toBeEnabled());
    // Headers no synonym matches ("Mail" and "Given" would be pre-mapped), so Email must be mapped by hand.
    const file = new File(['Inbox;Called;VANID;Notes\nx@y.z;X;1;hi\n'], 'people.csv', { type: 'text/csv' });
    await userEvent.upload(picker, file);

    const mail = await screen.findByRole('combobox', { name: 'Inbox' });
    expect(screen.getByRole('combobox', { name: 'VANID' })).toHaveValue('vanid');
    expect(screen.getByRole('alert')).toHaveTextContent('Map a column to Email');
    const submit = screen.getByRole('button', { name: 'Import' });
    expect(submit).toBeDisabled();

    await userEvent.selectOptions(mail, 'email');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Called' }), 'first_name');
    await userEvent.type(screen.getByLabelText('Origin code'), 'Spring drive');
    expect(submit).toBeEnabled();
    await userEvent.click(submit);

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/contacts'));
    expect(await screen.findByText('Import started')).toBeInTheDocument();
    expect(getTrackedJobs().map((j) => j.id)).toEqual([42]);
    await settled();
    const body = sentOnce('POST').body as FormData;
    expect(JSON.parse(String(body.get('mapping')))).toEqual({ Inbox: 'email', Called: 'first_name', VANID: 'vanid' });
    expect(body.get('originCode')).toBe('Spring drive');
    expect(body.get('file')).toBeInstanceOf(File);
    expect(fileName('file')).toBe('people.csv');
  });

  it('guesses the mapping when the import fields arrive after the file was chosen', async () => {
    let release = () => {};
    const loaded = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('/api/imports/fields', async () => {
        await loaded;
        return HttpResponse.json([
          { id: 'email', label: 'Email' },
          { id: 'vanid', label: 'VANID' },
        ]);
      }),
    );
    renderWithProviders(<ContactImportForm />);
    // A browser driven by a script can set the file while the picker still waits for the fields.
    const file = new File(['Email;VANID\nx@y.z;1\n'], 'people.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('File'), { target: { files: [file] } });
    release();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'VANID' })).toHaveValue('vanid'));
    expect(screen.getByRole('combobox', { name: 'Email' })).toHaveValue('email');
  });

  it('previews the first rows, each column headed by the field it goes to', async () => {
    server.use(
      http.get('/api/imports/fields', () =>
        HttpResponse.json([
          { id: 'email', label: 'Email' },
          { id: 'first_name', label: 'First name' },
        ]),
      ),
    );
    renderWithProviders(<ContactImportForm />);
    const picker = screen.getByLabelText('File');
    await waitFor(() => expect(picker).toBeEnabled());
    const file = new File(['E-mail;First Name;Notes\nann@x.org;Ann;VIP\nbob@x.org;Bob;\n'], 'people.csv', { type: 'text/csv' });
    await userEvent.upload(picker, file);

    const preview = await screen.findByRole('table', { name: 'Preview of the first rows' });
    expect(preview).toHaveClass('table-bordered');
    expect(within(preview).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'E-mail→ Email',
      'First Name→ First name',
      'Notes→ Not imported',
    ]);
    const [, ann, bob] = within(preview).getAllByRole('row');
    expect(within(ann).getAllByRole('cell').map((c) => c.textContent)).toEqual(['ann@x.org', 'Ann', 'VIP']);
    expect(within(bob).getAllByRole('cell').map((c) => c.textContent)).toEqual(['bob@x.org', 'Bob', '']);

    // The headers follow the mapping.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'First Name' }), '');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Notes' }), 'first_name');
    expect(within(preview).getByRole('columnheader', { name: /Notes/ })).toHaveTextContent('Notes→ First name');
    expect(within(preview).getByRole('columnheader', { name: /First Name/ })).toHaveTextContent('→ Not imported');
  });

  it('turns away files whose header row cannot be read here', async () => {
    server.use(http.all('*', () => HttpResponse.json([{ id: 'email', label: 'Email' }])));
    renderWithProviders(<ContactImportForm />);
    const picker = screen.getByLabelText('File');
    await waitFor(() => expect(picker).toBeEnabled());
    await userEvent.upload(picker, new File(['x'], 'people.xlsx'), { applyAccept: false });
    expect(await screen.findByText(/Only \.csv and \.txt files can be imported here/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });
});
