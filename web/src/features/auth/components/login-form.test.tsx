import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, jsonResponse, renderWithProviders } from '@/test/utils';
import { LoginForm, loginOutcome } from './login-form';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});

function renderLogin() {
  return renderWithProviders(
    <Routes>
      <Route path="/auth/login" element={<LoginForm />} />
      <Route path="/auth/select-client" element={<p>select client page</p>} />
    </Routes>,
    { route: '/auth/login' },
  );
}

describe('LoginForm validation', () => {
  it('requires an e-mail and a password', async () => {
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getAllByText('You must enter a value')).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('rejects a malformed e-mail and a one-character password', async () => {
    renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText('Not a valid email')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 2 characters')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows no message before the user has touched the fields', () => {
    renderLogin();
    expect(screen.queryByText('You must enter a value')).not.toBeInTheDocument();
  });
});

describe('LoginForm submit', () => {
  it('stores a basic token and goes to select-client', async () => {
    const token = fakeJwt({ user: 1, scope: ['basic'] });
    fetchMock.mockResolvedValueOnce(jsonResponse({ accessToken: token, twoFactorRequired: false, email: 'a@b.co' }));
    renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), ' a@b.co ');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('select client page')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe(token);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/auth-api/auth/login');
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'a@b.co', password: 'secret' });
  });

  it('refuses a token without the basic scope', async () => {
    const token = fakeJwt({ user: 1, scope: ['client'] });
    fetchMock.mockResolvedValueOnce(jsonResponse({ accessToken: token, twoFactorRequired: false, email: 'a@b.co' }));
    renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Unable to login')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows the server message of a refused login in the snackbar', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Invalid email or password' }, 401, 'Unauthorized'));
    renderLogin();
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Error 401: Invalid email or password.')).toBeInTheDocument();
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
});
