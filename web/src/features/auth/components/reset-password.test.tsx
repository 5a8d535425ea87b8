import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSnacks } from '@/lib/notifications';
import { jsonResponse, renderWithProviders } from '@/test/utils';
import { CONFIG, fetchRoutes, type RouteReply } from '../testing/fetch-routes';
import { FinishRegistration } from './finish-registration';
import { ResetPassword } from './reset-password';

let api: ReturnType<typeof fetchRoutes>;

function mockApi(routes: Record<string, RouteReply>) {
  api = fetchRoutes({ '/auth-api/auth/config': jsonResponse(CONFIG), ...routes });
}

beforeEach(() => mockApi({}));
afterEach(() => clearSnacks());

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/auth/reset-password" element={<ResetPassword />} />
        <Route path="/auth/finish-registration" element={<FinishRegistration />} />
        <Route path="/auth/login" element={<p>login page</p>} />
      </Routes>
      <Where />
    </>,
    { route },
  );
}

const PASSWORD_RULE =
  'Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.';

describe('Reset password: asking for a link', () => {
  it('validates the e-mail, sends it lower-cased with the client, then says to check the e-mail', async () => {
    mockApi({ 'POST /auth-api/auth/reset-email': jsonResponse({ status: 'sent' }) });
    renderAt('/auth/reset-password?client=e2e');
    await userEvent.click(screen.getByRole('button', { name: 'Send a reset link' }));
    expect(screen.getByText('You must enter a value')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), ' Ada@Example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Send a reset link' }));
    expect(await screen.findByText('Check your email for a link to reset your password')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/reset-email')[0].body).toEqual({ email: 'ada@example.org', client: 'e2e' });
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/auth/login?client=e2e');
  });
});

describe('Reset password: the e-mailed link', () => {
  const link = '/auth/reset-password?token=tok-1&email=ada%40example.org&client=e2e';

  it('a valid token shows "Enter a new password"; Save updates it, logs out and goes to login', async () => {
    localStorage.setItem('token', 'old-access');
    localStorage.setItem('refreshToken', 'old-refresh');
    localStorage.setItem('clientId', '3');
    localStorage.setItem('clientShort', 'e2e');
    mockApi({
      'POST /auth-api/auth/reset-check': jsonResponse({ valid: true }),
      'POST /auth-api/auth/reset-password': jsonResponse({ status: 'updated' }),
      'POST /auth-api/auth/logout': new Response(null, { status: 204 }),
    });
    renderAt(link);
    expect(await screen.findByText('Enter a new password')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/reset-check')[0].body).toEqual({ email: 'ada@example.org', token: 'tok-1', client: 'e2e' });

    await userEvent.type(screen.getByLabelText('Password'), 'weakpass');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'different');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(PASSWORD_RULE)).toBeInTheDocument();
    expect(screen.getByText('Password does not match')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/reset-password')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'New-passw0rd');
    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'New-passw0rd');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Password updated, login with new credentials')).toBeInTheDocument();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/auth/login?client=e2e');
    expect(api.calls('/auth-api/auth/reset-password')[0].body).toEqual({
      password: 'New-passw0rd',
      token: 'tok-1',
      email: 'ada@example.org',
      client: 'e2e',
    });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('clientId')).toBeNull();
    expect(api.calls('/auth-api/auth/logout')[0].body).toEqual({ refreshToken: 'old-refresh' });
  });

  it('an invalid token goes to login', async () => {
    mockApi({ 'POST /auth-api/auth/reset-check': jsonResponse({ valid: false }) });
    renderAt(link);
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(screen.queryByText('Enter a new password')).not.toBeInTheDocument();
  });

  it('an e-mail without a token asks for a link, the e-mail filled in', async () => {
    renderAt('/auth/reset-password?email=ada%40example.org');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.org');
    expect(api.calls('/auth-api/auth/reset-check')).toHaveLength(0);
  });
});

describe('Finish registration', () => {
  it('verifies the e-mail with the link\'s token, e-mail and client', async () => {
    mockApi({ 'POST /auth-api/auth/finish-registration': jsonResponse({ status: 'verified' }) });
    renderAt('/auth/finish-registration?token=t-5&email=ada%40example.org&client=e2e');
    expect(await screen.findByText('Email verified, an administrator now has to enable this account')).toBeInTheDocument();
    await waitFor(() => expect(api.calls('/auth-api/auth/finish-registration')).toHaveLength(1));
    expect(api.calls('/auth-api/auth/finish-registration')[0].body).toEqual({
      email: 'ada@example.org',
      token: 't-5',
      client: 'e2e',
    });
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/auth/login?client=e2e');
  });

  it("shows the server's refusal, with Back to login", async () => {
    mockApi({
      'POST /auth-api/auth/finish-registration': jsonResponse({ message: 'This link is invalid or has expired' }, 400),
    });
    renderAt('/auth/finish-registration?token=bad&email=ada%40example.org&client=e2e');
    expect(await screen.findByText('This link is invalid or has expired')).toBeInTheDocument();
    expect(screen.queryByText(/Email verified/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Error 400/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeInTheDocument();
  });
});
