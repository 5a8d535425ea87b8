import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSnacks } from '@/lib/notifications';
import { fakeJwt, jsonResponse, queriesSettled, renderWithProviders } from '@/test/utils';
import { CONFIG, fetchRoutes, type RouteReply } from '../testing/fetch-routes';
import { googleLoginOutcome, LoginForm, loginOutcome } from './login-form';

const ME = { id: 4, kind: 'client', email: 'c@b.co', firstName: 'C', lastName: 'U', permissions: [], universalPermissions: [] };

let api: ReturnType<typeof fetchRoutes>;

function mockApi(routes: Record<string, RouteReply>) {
  api = fetchRoutes({ '/auth-api/auth/config': jsonResponse(CONFIG), '/auth-api/session/me': jsonResponse(ME), ...routes });
}

beforeEach(() => mockApi({}));

afterEach(() => {
  delete window.google;
  clearSnacks();
});

function renderLogin(route = '/auth/login') {
  return renderWithProviders(
    <Routes>
      <Route path="/auth/login" element={<LoginForm />} />
      <Route path="/auth/select-client" element={<p>select client page</p>} />
      <Route path="/auth/register" element={<p>register page</p>} />
      <Route path="/" element={<p>app home</p>} />
      <Route path="/crm-lists" element={<p>lists page</p>} />
    </Routes>,
    { route },
  );
}

async function submitCredentials(email = 'a@b.co', password = 'secret') {
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

const universalToken = fakeJwt({ user: { id: 1, email: 'a@b.co', kind: 'universal' }, scope: ['basic'] });
const clientToken = fakeJwt({
  user: { id: 4, email: 'c@b.co', kind: 'client' },
  scope: ['basic', 'client'],
  clientId: 3,
  clientShort: 'e2e',
});

describe('LoginForm validation', () => {
  it('requires an e-mail and a password', async () => {
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getAllByText('You must enter a value')).toHaveLength(2);
    expect(api.calls('/auth-api/auth/login')).toHaveLength(0);
  });

  it('rejects a malformed e-mail and a one-character password', async () => {
    renderLogin();
    await submitCredentials('not-an-email', 'x');
    expect(screen.getByText('Not a valid email')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 2 characters')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/login')).toHaveLength(0);
  });

  it('shows no message before the user has touched the fields', () => {
    renderLogin();
    expect(screen.queryByText('You must enter a value')).not.toBeInTheDocument();
  });
});

describe('LoginForm submit', () => {
  it('stores a basic token and its refresh token and goes to select-client', async () => {
    mockApi({
      'POST /auth-api/auth/login': jsonResponse({
        accessToken: universalToken,
        refreshToken: 'r-1',
        twoFactorRequired: false,
        email: 'a@b.co',
      }),
    });
    renderLogin();
    await submitCredentials(' a@b.co ');
    expect(await screen.findByText('select client page')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe(universalToken);
    expect(localStorage.getItem('refreshToken')).toBe('r-1');
    expect(localStorage.getItem('clientId')).toBeNull();
    const [call] = api.calls('/auth-api/auth/login');
    expect(call.body).toEqual({ username: 'a@b.co', password: 'secret' });
  });

  it('refuses a token without the basic scope', async () => {
    const token = fakeJwt({ user: 1, scope: ['client'] });
    mockApi({ 'POST /auth-api/auth/login': jsonResponse({ accessToken: token, twoFactorRequired: false, email: 'a@b.co' }) });
    renderLogin();
    await submitCredentials();
    expect(await screen.findByText('Unable to login')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('no token and no two-factor: "Unable to login with password"', async () => {
    mockApi({ 'POST /auth-api/auth/login': jsonResponse({ twoFactorRequired: false, email: 'a@b.co' }) });
    renderLogin();
    await submitCredentials();
    expect(await screen.findByText('Unable to login with password')).toBeInTheDocument();
  });

  it('shows the server message of a refused login in the snackbar (on a client sign-in link)', async () => {
    mockApi({ 'POST /auth-api/auth/login': jsonResponse({ message: 'Invalid email or password' }, 401, 'Unauthorized') });
    renderLogin('/auth/login?client=e2e');
    await submitCredentials('a@b.co', 'wrong');
    expect(await screen.findByText('Error 401: Invalid email or password.')).toBeInTheDocument();
  });

  it('refused without a client: points a client user to their organisation\'s sign-in link (issue 17, item 9)', async () => {
    mockApi({ 'POST /auth-api/auth/login': jsonResponse({ message: 'Incorrect email or password' }, 401, 'Unauthorized') });
    renderLogin();
    await submitCredentials('staff@campaign.org', 'right-for-my-client');
    expect(
      await screen.findByText(
        "Incorrect email or password. If your organisation uses Compass, sign in with your organisation's sign-in link.",
      ),
    ).toBeInTheDocument();
    // The spec's general error snackbar still reports the refusal.
    expect(await screen.findByText('Error 401: Incorrect email or password.')).toBeInTheDocument();
  });

  it('a client sign-in link sends the client; a client token starts the client session and enters the app', async () => {
    localStorage.setItem('redirect', '/crm-lists');
    mockApi({
      'POST /auth-api/auth/login': jsonResponse({
        accessToken: clientToken,
        refreshToken: 'r-client',
        twoFactorRequired: false,
        email: 'c@b.co',
      }),
    });
    renderLogin('/auth/login?client=e2e');
    // Links between the auth pages keep the client.
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/auth/register?client=e2e');
    expect(screen.getByRole('link', { name: 'Request a reset' })).toHaveAttribute('href', '/auth/reset-password?client=e2e');
    await submitCredentials('c@b.co', 'Secret-1');
    expect(await screen.findByText('lists page')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/login')[0].body).toEqual({ username: 'c@b.co', password: 'Secret-1', client: 'e2e' });
    expect(localStorage.getItem('token')).toBe(clientToken);
    expect(localStorage.getItem('refreshToken')).toBe('r-client');
    expect(localStorage.getItem('clientId')).toBe('3');
    expect(localStorage.getItem('clientShort')).toBe('e2e');
    // The permissions were loaded with the new token before entering.
    expect(api.calls('/auth-api/session/me')[0].headers.get('Authorization')).toBe(`Bearer ${clientToken}`);
  });

  it('without a stored address a client token goes to the start page', async () => {
    mockApi({ 'POST /auth-api/auth/login': jsonResponse({ accessToken: clientToken, twoFactorRequired: false, email: 'c@b.co' }) });
    renderLogin('/auth/login?client=e2e');
    await submitCredentials('c@b.co', 'Secret-1');
    expect(await screen.findByText('app home')).toBeInTheDocument();
  });

  it('client-auth mode sends its client, and a token without the client fails with "Error selecting client" and logs out', async () => {
    mockApi({
      '/auth-api/auth/config': jsonResponse({ ...CONFIG, clientAuthShort: 'acme', clientName: 'Acme' }),
      'POST /auth-api/auth/login': jsonResponse({
        accessToken: universalToken,
        refreshToken: 'r-9',
        twoFactorRequired: false,
        email: 'a@b.co',
      }),
      'POST /auth-api/auth/logout': new Response(null, { status: 204 }),
    });
    const { queryClient } = renderLogin();
    // The client comes from the config: wait for it to be applied before submitting.
    await waitFor(() => expect(api.calls('/auth-api/auth/config')).toHaveLength(1));
    await queriesSettled(queryClient);
    await submitCredentials();
    expect(await screen.findByText('Error selecting client')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/login')[0].body).toMatchObject({ client: 'acme' });
    await waitFor(() => expect(api.calls('/auth-api/auth/logout')).toHaveLength(1));
    const logout = api.calls('/auth-api/auth/logout')[0];
    expect(logout.body).toEqual({ refreshToken: 'r-9' });
    expect(logout.headers.get('Authorization')).toBe(`Bearer ${universalToken}`);
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.queryByText('select client page')).not.toBeInTheDocument();
  });
});

describe('LoginForm two-factor step', () => {
  const twoFactor = jsonResponse({ twoFactorRequired: true, email: 'a@b.co', twoFactorMethod: 'email' });

  it('asks for the code, checks its shape, shows a refused code as "Invalid passcode", then signs in', async () => {
    let codeReplies = 0;
    mockApi({
      'POST /auth-api/auth/login': twoFactor,
      'POST /auth-api/auth/login-code': () =>
        ++codeReplies === 1
          ? jsonResponse({ message: 'Invalid passcode' }, 401, 'Unauthorized')
          : jsonResponse({ accessToken: universalToken, refreshToken: 'r-2', twoFactorRequired: false, email: 'a@b.co' }),
    });
    renderLogin();
    await submitCredentials();
    expect(await screen.findByText('Check your authenticator for a login code')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();

    const code = screen.getByLabelText('Login code');
    await userEvent.type(code, '12a');
    await userEvent.click(screen.getByRole('button', { name: 'Submit code' }));
    expect(screen.getByText('Invalid passcode')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/login-code')).toHaveLength(0);

    await userEvent.clear(code);
    await userEvent.type(code, '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Submit code' }));
    expect(await screen.findByText('Invalid passcode')).toBeInTheDocument();
    // A refused code is shown at the field, not as a general error.
    expect(screen.queryByText(/Error 401/)).not.toBeInTheDocument();

    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    expect(screen.queryByText('Invalid passcode')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Submit code' }));
    expect(await screen.findByText('select client page')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/login-code')[1].body).toEqual({ email: 'a@b.co', code: '123456' });
    expect(localStorage.getItem('token')).toBe(universalToken);
    expect(localStorage.getItem('refreshToken')).toBe('r-2');
  });

  it('sends the client with the code for a client sign-in link', async () => {
    mockApi({
      'POST /auth-api/auth/login': twoFactor,
      'POST /auth-api/auth/login-code': jsonResponse({ accessToken: clientToken, refreshToken: 'r-3', twoFactorRequired: false, email: 'c@b.co' }),
    });
    renderLogin('/auth/login?client=e2e');
    await submitCredentials();
    await userEvent.type(await screen.findByLabelText('Login code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Submit code' }));
    expect(await screen.findByText('app home')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/login-code')[0].body).toEqual({ email: 'a@b.co', code: '654321', client: 'e2e' });
    expect(localStorage.getItem('clientShort')).toBe('e2e');
  });

  it('"Back to login" returns to step 1', async () => {
    mockApi({ 'POST /auth-api/auth/login': twoFactor });
    renderLogin();
    await submitCredentials();
    await userEvent.click(await screen.findByRole('button', { name: 'Back to login' }));
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });
});

describe('LoginForm Google sign-in', () => {
  function fakeGoogle() {
    const initialize = vi.fn<(config: { client_id: string; callback: (r: { credential?: string }) => void }) => void>();
    const renderButton = vi.fn();
    window.google = { accounts: { id: { initialize, renderButton } } };
    return { initialize, renderButton, credential: (credential?: string) => initialize.mock.calls[0][0].callback({ credential }) };
  }

  it('is left out when Google is not configured', async () => {
    const google = fakeGoogle();
    const { queryClient } = renderLogin();
    await waitFor(() => expect(api.calls('/auth-api/auth/config')).toHaveLength(1));
    await queriesSettled(queryClient);
    expect(screen.queryByTestId('google-sign-in')).not.toBeInTheDocument();
    expect(google.initialize).not.toHaveBeenCalled();
  });

  it('passes Google\'s credential to the Google login, with the client', async () => {
    const google = fakeGoogle();
    mockApi({
      '/auth-api/auth/config': jsonResponse({ ...CONFIG, googleClientId: 'gid.apps' }),
      'POST /auth-api/auth/google': jsonResponse({ accessToken: clientToken, refreshToken: 'r-g', twoFactorRequired: false, email: 'c@b.co' }),
    });
    renderLogin('/auth/login?client=e2e');
    await waitFor(() => expect(google.renderButton).toHaveBeenCalled());
    expect(google.initialize.mock.calls[0][0].client_id).toBe('gid.apps');
    google.credential('id-token-from-google');
    expect(await screen.findByText('app home')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/google')[0].body).toEqual({ credential: 'id-token-from-google', client: 'e2e' });
    expect(localStorage.getItem('refreshToken')).toBe('r-g');
  });

  it('no credential or no token: "Unable to login with Google"', async () => {
    const google = fakeGoogle();
    mockApi({
      '/auth-api/auth/config': jsonResponse({ ...CONFIG, googleClientId: 'gid.apps' }),
      'POST /auth-api/auth/google': jsonResponse({ twoFactorRequired: false, email: 'c@b.co' }),
    });
    renderLogin();
    await waitFor(() => expect(google.renderButton).toHaveBeenCalled());
    google.credential(undefined);
    expect(await screen.findByText('Unable to login with Google')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/google')).toHaveLength(0);
    google.credential('id-token');
    await waitFor(() => expect(api.calls('/auth-api/auth/google')).toHaveLength(1));
    expect(await screen.findByText('Unable to login with Google')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('loginOutcome', () => {
  it('no token and no two-factor: "Unable to login with password"', () => {
    expect(loginOutcome({ twoFactorRequired: false, email: 'a@b.co' })).toEqual({
      kind: 'error',
      message: 'Unable to login with password',
    });
  });

  it('an undecodable token: "Unable to login"', () => {
    expect(loginOutcome({ accessToken: 'garbage', twoFactorRequired: false, email: 'a@b.co' })).toEqual({
      kind: 'error',
      message: 'Unable to login',
    });
  });

  it('two-factor required: step 2', () => {
    expect(loginOutcome({ twoFactorRequired: true, email: 'a@b.co' })).toEqual({ kind: 'two-factor', email: 'a@b.co' });
  });

  it('Google: no token is "Unable to login with Google", a token without basic is "Unable to login"', () => {
    expect(googleLoginOutcome({ twoFactorRequired: false, email: 'a@b.co' })).toEqual({
      kind: 'error',
      message: 'Unable to login with Google',
    });
    expect(googleLoginOutcome(undefined)).toEqual({ kind: 'error', message: 'Unable to login with Google' });
    expect(googleLoginOutcome({ accessToken: fakeJwt({ scope: [] }), twoFactorRequired: false, email: 'a@b.co' })).toEqual({
      kind: 'error',
      message: 'Unable to login',
    });
  });
});
