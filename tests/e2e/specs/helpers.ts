import { expect, type Page } from '@playwright/test';

export const EMAIL = process.env.E2E_EMAIL ?? 'e2e@compass.test';
export const PASSWORD = process.env.E2E_PASSWORD ?? 'E2e-passw0rd';

/** Signs in through the real login and select-client screens. */
export async function signIn(page: Page, client = 'E2E Campaign'): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/auth\/select-client/);
  await page.getByLabel('Client').selectOption({ label: client });
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/auth\//);
}
