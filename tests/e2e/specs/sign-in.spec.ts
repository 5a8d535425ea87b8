import { expect, test } from '@playwright/test';
import { EMAIL, PASSWORD, signIn } from './helpers';

test('a signed-out visitor is sent to the login page, which validates its fields', async ({ page }) => {
  await page.goto('/crm-lists');
  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByText('Compass Login')).toBeVisible();

  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('You must enter a value').first()).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Email').blur();
  await expect(page.getByText('Not a valid email')).toBeVisible();
});

test('a wrong password shows the server error in the snackbar', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill('Wrong-passw0rd');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Error 401: Incorrect email or password.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('sign-in, select client, land where the user was going, see the shell', async ({ page }) => {
  await page.goto('/crm-lists');
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();

  await expect(page).toHaveURL(/\/auth\/select-client/);
  const login = page.getByRole('button', { name: 'Login' });
  await expect(login).toBeDisabled();
  await page.getByLabel('Client').selectOption({ label: 'E2E Campaign' });
  await expect(login).toBeEnabled();
  await login.click();

  await expect(page).toHaveURL(/\/crm-lists$/);
  await expect(page.getByText('E2E Campaign', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Compass Test Agency')).toBeVisible();
  await expect(page.getByText('CRM', { exact: true }).first()).toBeVisible();

  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('logout clears the session', async ({ page }) => {
  await signIn(page);
  await page.goto('/auth/logout');
  await expect(page).toHaveURL(/\/auth\/login/);
  const stored = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('clientShort')]);
  expect(stored).toEqual([null, null]);
  await page.goto('/jobs');
  await expect(page).toHaveURL(/\/auth\/login/);
});
