import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSnacks } from '@/lib/notifications';
import { jsonResponse, renderWithProviders } from '@/test/utils';
import { CONFIG, fetchRoutes, type RouteReply } from '../testing/fetch-routes';
import { RegisterForm, registerErrors } from './register-form';
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

function renderRegister(route = '/auth/register?client=e2e') {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/auth/register" element={<RegisterForm />} />
        <Route path="/auth/reset-password" element={<ResetPassword />} />
        <Route path="/auth/login" element={<p>login page</p>} />
      </Routes>
      <Where />
    </>,
    { route },
  );
}

const PASSWORD_RULE =
  'Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.';

async function fill(values: Partial<Record<string, string>>) {
  const labels: Record<string, string> = {
    firstname: 'First name',
    lastname: 'Last name',
    email: 'Email',
    phone: 'Phone',
    password: 'Password',
    confirm: 'Confirm password',
  };
  for (const [field, value] of Object.entries(values)) {
    const input = screen.getByLabelText(labels[field]);
    await userEvent.clear(input);
    if (value) await userEvent.type(input, value);
  }
}

const VALID = {
  firstname: 'Ada',
  lastname: 'Lovelace',
  email: '  Ada.Lovelace@Example.ORG ',
  password: 'Secret-pass1',
  confirm: 'Secret-pass1',
};

describe('RegisterForm', () => {
  it('without a client says up front that registration needs the organisation\'s link (issue 17, item 9)', async () => {
    mockApi({});
    renderRegister('/auth/register');
    expect(
      await screen.findByText(
        "To register, open your organisation's sign-in link and choose Register there. Ask your organisation for the link.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });

  it('is titled "Sign up for a Compass account" and shows every rule on submit', async () => {
    renderRegister();
    expect(screen.getByText('Sign up for a Compass account')).toBeInTheDocument();
    await fill({ email: 'nope', phone: '12345', password: 'short1A', confirm: 'other' });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getAllByText('You must enter a value')).toHaveLength(2);
    expect(screen.getByText('Not a valid email')).toBeInTheDocument();
    expect(screen.getByText('Phone number should include only digits')).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_RULE)).toBeInTheDocument();
    expect(screen.getByText('Password does not match')).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/register')).toHaveLength(0);
  });

  it('the phone method is disabled until the phone is 10 digits; e-mail is the default', async () => {
    renderRegister();
    const byEmail = screen.getByLabelText('Code by email');
    const byPhone = screen.getByLabelText('Code by phone');
    expect(byEmail).toBeChecked();
    expect(byPhone).toBeDisabled();
    await fill({ phone: '555123456' });
    expect(byPhone).toBeDisabled();
    await fill({ phone: '5551234567' });
    expect(byPhone).toBeEnabled();
    await userEvent.click(byPhone);
    expect(byPhone).toBeChecked();
    // An invalid phone again: back to e-mail.
    await fill({ phone: '555-123' });
    expect(byPhone).toBeDisabled();
    expect(byEmail).toBeChecked();
  });

  it('sends the e-mail trimmed and lower-cased, the client of the link, and shows "pending" with Back to login', async () => {
    mockApi({ 'POST /auth-api/auth/register': jsonResponse({ status: 'pending', duplicate: false }) });
    renderRegister();
    await fill({ ...VALID, phone: '5551234567' });
    await userEvent.click(screen.getByLabelText('Code by phone'));
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(
      await screen.findByText('Registration received, check your email for a link to finish registration'),
    ).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/register')[0].body).toEqual({
      email: 'ada.lovelace@example.org',
      password: 'Secret-pass1',
      firstname: 'Ada',
      lastname: 'Lovelace',
      phone: '5551234567',
      twoFactorMethod: 'phone',
      client: 'e2e',
    });
    await userEvent.click(screen.getByRole('link', { name: 'Back to login' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/auth/login?client=e2e');
  });

  it('status duplicate: "Email already exists. An admin has to enable this account"', async () => {
    mockApi({ 'POST /auth-api/auth/register': jsonResponse({ status: 'duplicate', duplicate: false }) });
    renderRegister();
    await fill(VALID);
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Email already exists. An admin has to enable this account')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/register')[0].body).toMatchObject({ twoFactorMethod: 'email', phone: '' });
  });

  it('a flagged duplicate goes to reset-password with the e-mail filled in', async () => {
    mockApi({ 'POST /auth-api/auth/register': jsonResponse({ status: 'duplicate', duplicate: true }) });
    renderRegister();
    await fill(VALID);
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('button', { name: 'Send a reset link' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(
      '/auth/reset-password?email=ada.lovelace%40example.org&client=e2e',
    );
    expect(screen.getByLabelText('Email')).toHaveValue('ada.lovelace@example.org');
  });
});

describe('registerErrors', () => {
  const ok = { firstname: 'A', lastname: 'B', email: 'a@b.co', phone: '', twoFactorMethod: 'email' as const, password: 'Abcdefg1', confirm: 'Abcdefg1' };

  it('accepts a complete form with or without a phone', () => {
    expect(Object.values(registerErrors(ok)).every((e) => e === null)).toBe(true);
    expect(registerErrors({ ...ok, phone: '0123456789' }).phone).toBeNull();
  });

  it('needs a digit, an upper-case and a lower-case letter and 8 characters', () => {
    for (const weak of ['Abcdefgh', 'abcdefg1', 'ABCDEFG1', 'Abcdef1']) {
      expect(registerErrors({ ...ok, password: weak, confirm: weak }).password).toBe(PASSWORD_RULE);
    }
  });

  it('phone: exactly 10 digits', () => {
    for (const bad of ['123456789', '12345678901', '555-123-45', 'abcdefghij']) {
      expect(registerErrors({ ...ok, phone: bad }).phone).toBe('Phone number should include only digits');
    }
  });
});
