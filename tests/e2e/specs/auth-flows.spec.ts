import { expect, test, type Page } from '@playwright/test';
import {
  EMAIL,
  MAIL_DIR,
  enableClientUser,
  linkIn,
  loginCodeIn,
  mailCount,
  signIn,
  waitForMail,
  waitForSmsCode,
  smsCodesFor,
} from './helpers';

const VERIFY_MARKER = '/auth/finish-registration';
const RESET_MARKER = '/auth/reset-password';
const CODE_MARKER = 'login code is';

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** Fills the register form (client from the address) and submits it. */
async function register(page: Page, user: { email: string; password: string; phone?: string; byPhone?: boolean }) {
  await page.getByLabel('First name').fill('Reggie');
  await page.getByLabel('Last name').fill('Strant');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  if (user.phone) await page.getByLabel('Phone', { exact: true }).fill(user.phone);
  if (user.byPhone) await page.getByLabel('Code by phone').check();
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Register' }).click();
}

async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

const clientName = (page: Page) => page.getByTestId('client-name');

test('a client user registers, verifies the e-mail, is enabled, signs in with an e-mailed code, resets the password', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  expect(MAIL_DIR, 'E2E_MAIL_DIR is set by run.sh').not.toBe('');
  const email = `reg.${unique()}@example.org`;
  const password = 'Regist3r-pass';

  // Register through the client's sign-up link.
  await page.goto('/auth/register?client=e2e');
  await expect(page.getByRole('heading', { name: 'Compass Login - E2E Campaign' })).toBeVisible();
  await expect(page.getByText('Sign up for a Compass account')).toBeVisible();
  // The rules, before anything is sent.
  await page.getByLabel('Password', { exact: true }).fill('weak');
  await page.getByLabel('Confirm password').fill('other');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(
    page.getByText('Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.'),
  ).toBeVisible();
  await expect(page.getByText('Password does not match')).toBeVisible();
  await expect(page.getByLabel('Code by phone')).toBeDisabled();

  await register(page, { email: `  ${email.toUpperCase()} `, password });
  await expect(page.getByText('Registration received, check your email for a link to finish registration')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();

  // The verification e-mail's link.
  const verification = await waitForMail(email, VERIFY_MARKER);
  const verifyLink = linkIn(verification, VERIFY_MARKER);
  expect(verifyLink).toContain('client=e2e');
  await page.goto(verifyLink);
  await expect(page.getByText('Email verified, an administrator now has to enable this account')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Compass Login - E2E Campaign' })).toBeVisible();

  // Not enabled yet: the login is refused with the server's words.
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?client=e2e$/);
  await submitLogin(page, email, password);
  await expect(page.getByText(/Error 403: /)).toBeVisible();

  // An administrator enables the account (through the API: the Manage Users screen is covered elsewhere).
  await enableClientUser(request, email);

  // Sign in: the code comes by e-mail.
  let codes = mailCount(email, CODE_MARKER);
  await page.goto('/auth/login?client=e2e');
  await submitLogin(page, email, password);
  await expect(page.getByText('Check your authenticator for a login code')).toBeVisible();
  const code = loginCodeIn(await waitForMail(email, CODE_MARKER, codes));
  // A wrong code first.
  await page.getByLabel('Login code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Submit code' }).click();
  await expect(page.getByText('Invalid passcode')).toBeVisible();
  await page.getByLabel('Login code').fill(code);
  await page.getByRole('button', { name: 'Submit code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(clientName(page)).toHaveText('E2E Campaign');
  // A client user's session: no Switch Client.
  await page.getByRole('button', { name: 'Account' }).click();
  await expect(page.getByRole('button', { name: 'Switch Client' })).toHaveCount(0);

  // Logout returns to the client's login page.
  await page.getByText('Logout', { exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/login\?client=e2e$/);
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refreshToken')])).toEqual([null, null]);

  // Password reset.
  await page.getByRole('link', { name: 'Request a reset' }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password\?client=e2e$/);
  const resets = mailCount(email, RESET_MARKER);
  // The address changes a moment before the new page replaces the login form, which has an Email field too.
  const resetForm = page.getByRole('form', { name: 'Reset password' });
  await resetForm.getByLabel('Email').fill(email);
  await resetForm.getByRole('button', { name: 'Send a reset link' }).click();
  await expect(page.getByText('Check your email for a link to reset your password')).toBeVisible();
  const resetLink = linkIn(await waitForMail(email, RESET_MARKER, resets), RESET_MARKER);
  await page.goto(resetLink);
  await expect(page.getByText('Enter a new password')).toBeVisible();
  const newPassword = 'Brand-new-passw0rd';
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm password').fill(newPassword + 'x');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Password does not match')).toBeVisible();
  await page.getByLabel('Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Password updated, login with new credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login\?client=e2e$/);

  // The link works once.
  await page.goto(resetLink);
  await expect(page).toHaveURL(/\/auth\/login/);

  // The old password is refused, the new one works.
  await page.goto('/auth/login?client=e2e');
  await submitLogin(page, email, password);
  await expect(page.getByText('Error 401: Incorrect email or password.')).toBeVisible();
  codes = mailCount(email, CODE_MARKER);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Check your authenticator for a login code')).toBeVisible();
  await page.getByLabel('Login code').fill(loginCodeIn(await waitForMail(email, CODE_MARKER, codes)));
  await page.getByRole('button', { name: 'Submit code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(clientName(page)).toHaveText('E2E Campaign');
});

test('a client user with the phone method signs in with the texted code', async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = `phone.${unique()}@example.org`;
  const phone = `55${unique().slice(-8)}`;
  const password = 'Ph0ne-user-pass';

  await page.goto('/auth/register?client=e2e');
  await register(page, { email, password, phone, byPhone: true });
  await expect(page.getByText('Registration received, check your email for a link to finish registration')).toBeVisible();
  await page.goto(linkIn(await waitForMail(email, VERIFY_MARKER), VERIFY_MARKER));
  await expect(page.getByText('Email verified, an administrator now has to enable this account')).toBeVisible();
  await enableClientUser(request, email);

  const before = smsCodesFor(phone).length;
  await page.goto('/auth/login?client=e2e');
  await submitLogin(page, email, password);
  await expect(page.getByText('Check your authenticator for a login code')).toBeVisible();
  await page.getByLabel('Login code').fill(await waitForSmsCode(phone, before));
  await page.getByRole('button', { name: 'Submit code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(clientName(page)).toHaveText('E2E Campaign');

  // Registering the enabled account again leads to the password reset, the e-mail filled in.
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByText('Logout', { exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/login\?client=e2e$/);
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/register\?client=e2e$/);
  await register(page, { email, password });
  await expect(page).toHaveURL(/\/auth\/reset-password\?/);
  expect(new URL(page.url()).searchParams.get('email')).toBe(email);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByRole('button', { name: 'Send a reset link' })).toBeVisible();
});

test('registering an address again that is not enabled yet says it exists', async ({ page }) => {
  const email = `dup.${unique()}@example.org`;
  await page.goto('/auth/register?client=e2e');
  await register(page, { email, password: 'Dupl1cate-pass' });
  await expect(page.getByText('Registration received, check your email for a link to finish registration')).toBeVisible();
  await page.goto('/auth/register?client=e2e');
  await register(page, { email, password: 'Dupl1cate-pass' });
  await expect(page.getByText('Email already exists. An admin has to enable this account')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/register/);
});

test('a universal user switches client; the header names the new one', async ({ page }) => {
  await signIn(page);
  await expect(clientName(page)).toHaveText('E2E Campaign');
  const before = await page.evaluate(() => localStorage.getItem('refreshToken'));
  expect(before).toBeTruthy();

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Switch Client' }).click();
  await expect(page).toHaveURL(/\/auth\/select-client$/);
  await expect(page.getByRole('heading', { name: 'Compass Login' })).toBeVisible();
  await page.getByLabel('Client').selectOption({ label: 'Other Committee' });
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/auth\//);
  await expect(clientName(page)).toHaveText('Other Committee');
  const stored = await page.evaluate(() => [localStorage.getItem('clientShort'), localStorage.getItem('refreshToken')]);
  expect(stored[0]).toBe('e2eother');
  // The client login replaced the session: a new refresh token.
  expect(stored[1]).toBeTruthy();
  expect(stored[1]).not.toBe(before);
});

test('an access token the server refuses is refreshed once and the page still loads; logout ends the session', async ({
  page,
  request,
}) => {
  await signIn(page);
  // The page signed in to must finish its own calls first: one sent with the tampered token below would refresh
  // from this page, and a navigation that cuts off that refresh's answer leaves the rotated-away refresh token in
  // storage (the server then ends the session family, as a reused refresh token must).
  await page.waitForLoadState('networkidle');
  const first = await page.evaluate(() => [localStorage.getItem('token')!, localStorage.getItem('refreshToken')!]);
  // Stands in for an expired token (they live 15 minutes): a token the server cannot verify.
  await page.evaluate(() => localStorage.setItem('token', 'eyJhbGciOiJIUzI1NiJ9.eyJzY29wZSI6WyJiYXNpYyJdfQ.bad-signature'));
  const refreshes: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/auth-api/auth/refresh')) refreshes.push(r.url());
  });
  await page.goto('/crm-lists');
  await expect(page.getByRole('button', { name: 'Create List' })).toBeVisible();
  await expect(clientName(page)).toHaveText('E2E Campaign');
  // Several calls failed at once; one refresh served them all.
  expect(refreshes).toHaveLength(1);
  const second = await page.evaluate(() => [localStorage.getItem('token')!, localStorage.getItem('refreshToken')!]);
  // (The new access token may equal the first one: same session, same second.)
  expect(second[0]).toMatch(/^eyJ/);
  expect(second[0]).not.toContain('bad-signature');
  expect(second[1]).not.toBe(first[1]);
  // Rotation: the old refresh token no longer works.
  const reused = await request.post('/auth-api/auth/refresh', { data: { refreshToken: first[1] } });
  expect(reused.status()).toBe(401);

  // Logout revokes the session: its access token stops working.
  const me = () => request.get('/auth-api/session/me', { headers: { Authorization: `Bearer ${second[0]}` } });
  expect((await me()).status()).toBe(200);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByText('Logout', { exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect((await me()).status()).toBe(401);
  const refreshAfter = await request.post('/auth-api/auth/refresh', { data: { refreshToken: second[1] } });
  expect(refreshAfter.status()).toBe(401);
});

test('a universal user can sign in straight to a client with a client sign-in link', async ({ page }) => {
  await page.goto('/auth/login?client=e2eother');
  await expect(page.getByRole('heading', { name: 'Compass Login - Other Committee' })).toBeVisible();
  await submitLogin(page, EMAIL, process.env.E2E_PASSWORD ?? 'E2e-passw0rd');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(clientName(page)).toHaveText('Other Committee');
});
