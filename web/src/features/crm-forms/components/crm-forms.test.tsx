import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Form } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, sentOnce, server, settled } from '@/test/msw';
import { queriesSettled, renderWithProviders } from '@/test/utils';
import { CrmFormEditor } from './crm-form-editor';
import { CrmFormsTable } from './crm-forms-table';

const FORM: Form = {
  id: 9,
  name: 'Spring signup',
  bodyHtml: '<form><input type="email" name="email"><button>Join</button></form>',
  enabled: true,
  externalOriginCodeId: 4,
  originCodeName: 'spring-form',
  redirect_url: 'https://example.org/thanks',
  submissionCount: 1,
  submissions: 1,
  viewCount: 3,
  created: '2026-03-04T10:20:30Z',
  updated: '2026-03-04T10:20:30Z',
  style: {},
};

afterEach(() => act(() => clearSnacks()));

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderEditor(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/crm-form-add" element={<CrmFormEditor />} />
        <Route path="/crm-form-detail/:id" element={<CrmFormEditor id={FORM.id} />} />
        <Route path="*" element={null} />
      </Routes>
      <Location />
    </>,
    { route },
  );
}

const calls = () => sent().map((r) => `${r.method} ${r.url}`);

describe('CrmFormsTable', () => {
  it('shows "Untitled", the status, submissions, conversion rate and origin code', async () => {
    server.use(
      http.all('*', () =>
        HttpResponse.json([
          FORM,
          { ...FORM, id: 10, name: '', enabled: false, submissions: 0, submissionCount: 0, viewCount: 0, originCodeName: undefined },
        ]),
      ),
    );
    renderWithProviders(<CrmFormsTable />);
    const link = await screen.findByRole('link', { name: 'Spring signup' });
    expect(link).toHaveAttribute('href', '/crm-form-detail/9');
    const row = link.closest('tr')!;
    expect(within(row).getByText('ENABLED')).toBeInTheDocument();
    expect(within(row).getByText('0.33')).toBeInTheDocument();
    expect(within(row).getByText('spring-form')).toBeInTheDocument();
    const untitled = screen.getByRole('link', { name: 'Untitled' });
    expect(untitled).toHaveAttribute('href', '/crm-form-detail/10');
    const row2 = untitled.closest('tr')!;
    expect(within(row2).getByText('DISABLED')).toBeInTheDocument();
    expect(within(row2).getByText('0.00')).toBeInTheDocument();
    expect(sent()[0].url).toBe('/api/crm-form');
  });

  it('says so when there are no forms', async () => {
    server.use(http.all('*', () => HttpResponse.json([])));
    renderWithProviders(<CrmFormsTable />);
    expect(await screen.findByText('No forms yet.')).toBeInTheDocument();
  });
});

describe('CrmFormEditor', () => {
  it('keeps Save disabled until the form has a name', async () => {
    renderEditor('/crm-form-add');
    expect(screen.getByRole('tab', { name: 'Form Setup' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'HTML Editor' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Create New' })).toBeChecked();
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Public form link')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Form Setup' }));
    await userEvent.type(screen.getByLabelText('Form name'), '   ');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(save).toBeDisabled();
    await userEvent.click(screen.getByRole('tab', { name: 'Form Setup' }));
    await userEvent.type(screen.getByLabelText('Form name'), 'Spring');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(save).toBeEnabled();
  });

  it('issue 27 item 16: a body with nothing to fill in cannot be enabled, and the editor says why', async () => {
    server.use(
      http.post('/api/crm-form', () => HttpResponse.json({ ...FORM, enabled: false }, { status: 201 })),
      http.all('/auth-api/session/me', () => HttpResponse.json({ permissions: [], universalPermissions: [] })),
      http.all('*', () => HttpResponse.json([])),
    );
    renderEditor('/crm-form-add');
    await userEvent.type(screen.getByLabelText('Form name'), 'Petition');
    await userEvent.click(screen.getByRole('tab', { name: 'HTML Editor' }));
    const body = screen.getByLabelText('Body HTML');
    await userEvent.type(body, '<p>Sign our petition</p>');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    const enabled = screen.getByRole('switch', { name: 'Enabled' });
    expect(enabled).not.toBeChecked();
    expect(enabled).toBeDisabled();
    expect(enabled).toHaveAccessibleDescription(
      'This form cannot be enabled: its body has no <form> with an e-mail field (an input of type email or named email), so visitors would have nothing to fill in.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-form-detail/9'));
    await settled();
    expect(sentOnce('POST', '/api/crm-form').body).toMatchObject({ enabled: false, bodyHtml: '<p>Sign our petition</p>' });
  });

  it('issue 27 item 16: a form with an e-mail field can be enabled again', async () => {
    renderEditor('/crm-form-add');
    await userEvent.click(screen.getByRole('tab', { name: 'HTML Editor' }));
    await userEvent.click(screen.getByLabelText('Body HTML'));
    await userEvent.paste('<form><input name="email"></form>');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    const enabled = screen.getByRole('switch', { name: 'Enabled' });
    expect(enabled).toBeEnabled();
    expect(enabled).toBeChecked();
    expect(screen.queryByText(/cannot be enabled/)).not.toBeInTheDocument();
  });

  it('Create New sends the new origin code by name with the form, in one request', async () => {
    server.use(
      http.post('/api/crm-form', () => HttpResponse.json(FORM, { status: 201 })),
      http.all('/auth-api/session/me', () => HttpResponse.json({ permissions: [], universalPermissions: [] })),
      http.all('*', () => HttpResponse.json([])),
    );
    renderEditor('/crm-form-add');
    await userEvent.type(screen.getByLabelText('Form name'), 'Spring signup');
    await userEvent.type(screen.getByLabelText('New origin code'), 'spring-form');
    await userEvent.type(screen.getByLabelText('Redirect URL'), 'https://example.org/thanks');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByRole('switch', { name: 'Enabled' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-form-detail/9'));
    expect(await screen.findByText('Form saved')).toBeInTheDocument();
    await settled();
    const posts = sent().filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.url)).toEqual(['/api/crm-form']);
    expect(posts[0].body).toEqual({
      name: 'Spring signup',
      enabled: true,
      originCodeName: 'spring-form',
      redirect_url: 'https://example.org/thanks',
      style: { primaryColor: null, backgroundColor: null, logoUrl: null, buttonText: null },
    });
  });

  it('a form save refused for its redirect URL creates no origin code first', async () => {
    server.use(
      http.post('/api/crm-form', () =>
        HttpResponse.json({ message: 'Redirect URL must start with http:// or https://' }, { status: 400 }),
      ),
      http.all('*', () => HttpResponse.json({ id: 4, name: 'spring-form', label: 'spring-form' })),
    );
    renderEditor('/crm-form-add');
    await userEvent.type(screen.getByLabelText('Form name'), 'Spring signup');
    await userEvent.type(screen.getByLabelText('New origin code'), 'spring-form');
    await userEvent.type(screen.getByLabelText('Redirect URL'), 'ftp://x');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Error 400: Redirect URL must start with http:// or https://.'),
    ).toBeInTheDocument();
    expect(calls()).not.toContain('POST /api/external-origin-code/get-or-create-crm');
    expect(calls().filter((c) => c.startsWith('POST'))).toEqual(['POST /api/crm-form']);
  });

  it('shows the server message when saving fails', async () => {
    server.use(
      http.post('/api/crm-form', () =>
        HttpResponse.json({ message: 'Redirect URL must start with http:// or https://' }, { status: 400 }),
      ),
      http.all('*', () => HttpResponse.json([])),
    );
    renderEditor('/crm-form-add');
    await userEvent.type(screen.getByLabelText('Form name'), 'Spring signup');
    await userEvent.type(screen.getByLabelText('Redirect URL'), 'ftp://x');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Error 400: Redirect URL must start with http:// or https://.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/crm-form-add');
  });

  it('shows no signups without pageContacts, as the server refuses them (issue 11, item 8)', async () => {
    server.use(
      http.all('/api/crm-form/9', () => HttpResponse.json(FORM)),
      http.all('/auth-api/session/me', () => HttpResponse.json({ permissions: [], universalPermissions: [] })),
      http.all('*', () => HttpResponse.json([])),
    );
    const { queryClient } = renderEditor('/crm-form-detail/9');
    expect(await screen.findByRole('heading', { name: 'Spring signup' })).toBeInTheDocument();
    await waitFor(() => expect(calls()).toContain('GET /auth-api/session/me'));
    await queriesSettled(queryClient);
    expect(screen.queryByRole('heading', { name: 'Recent signups' })).not.toBeInTheDocument();
    expect(calls().some((call) => call.includes('/api/external-signup'))).toBe(false);
  });

  it('edits a saved form: origin code locked to Use Existing, public link, signups, delete', async () => {
    localStorage.setItem('clientShort', 'demo');
    server.use(
      http.delete('/api/crm-form/9', () => new HttpResponse(null, { status: 204 })),
      http.patch('/api/crm-form/9', () => HttpResponse.json({ ...FORM, enabled: false })),
      http.all('/api/crm-form/9', () => HttpResponse.json(FORM)),
      http.all('/auth-api/session/me', () => HttpResponse.json({ permissions: ['pageContacts'], universalPermissions: [] })),
      http.all('/api/external-signup*', () =>
        HttpResponse.json([
          { id: 1, contactId: 3, email: 'vera@example.org', originCodeName: 'spring-form', referrer: 'https://ref.example/', created: FORM.created },
        ]),
      ),
      http.all('*', () => HttpResponse.json([])),
    );
    renderEditor('/crm-form-detail/9');
    expect(await screen.findByRole('heading', { name: 'Spring signup' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Create New' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Use Existing' })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Existing origin code' })).toHaveValue('spring-form');

    const signups = await screen.findByRole('table', { name: 'Recent signups' });
    expect(within(signups).getByText('vera@example.org')).toBeInTheDocument();
    expect(within(signups).getByText(new Date(FORM.created).toLocaleString())).toBeInTheDocument();
    const signupCall = sent().find((r) => r.url.startsWith('/api/external-signup'))!;
    const filter = new URL(signupCall.url, 'http://x').searchParams.get('filter');
    expect(JSON.parse(filter!)).toEqual({ formId: 9, limit: 20 });

    await userEvent.click(screen.getByRole('tab', { name: 'HTML Editor' }));
    // The viewer's own rendering, in a frame where nothing of the body can run.
    const preview = screen.getByTitle<HTMLIFrameElement>('Form preview');
    expect(preview).toHaveAttribute('sandbox', 'allow-same-origin');
    await waitFor(() => expect(preview.contentDocument!.querySelector('.styled-form-body button')).toHaveTextContent('Join'));

    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByLabelText('Public form link')).toHaveValue(`${window.location.origin}/form-viewer;id=9;client=demo`);
    await userEvent.click(screen.getByRole('switch', { name: 'Enabled' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Form saved')).toBeInTheDocument();
    await settled();
    expect(sentOnce('PATCH').body).toMatchObject({ name: 'Spring signup', enabled: false, externalOriginCodeId: 4 });
    expect(calls()).not.toContain('POST /api/external-origin-code/get-or-create-crm');

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Confirm delete')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-forms'));
    expect(calls()).toContain('DELETE /api/crm-form/9');
  });
});
