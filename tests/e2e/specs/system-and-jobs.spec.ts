import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('the system page edits the app settings, and the header follows', async ({ page }) => {
  await signIn(page, 'Other Committee');
  await page.goto('/system');
  const name = page.getByLabel('Client name');
  await expect(name).toHaveValue('Other Committee');
  await name.fill('Other Committee 2026');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Other Committee 2026', { exact: true }).first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Client name')).toHaveValue('Other Committee 2026');
});

test('a background job shows its banner, then the finished dialog, and is listed on the jobs page', async ({ page }) => {
  await signIn(page);
  await page.goto('/system');
  await page.getByRole('button', { name: 'Recount list sizes' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Recount lists finished');
  await expect(dialog.getByRole('link', { name: 'View Result' })).toBeVisible();

  await page.goto('/jobs');
  await expect(page.getByRole('cell', { name: 'Recount lists' }).first()).toBeVisible();
});
