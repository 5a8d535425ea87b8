import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

/** Counts the answers with this status for GETs of `path` from now on. */
function countAnswers(page: Page, path: RegExp, status: number): () => number {
  let count = 0;
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && path.test(new URL(response.url()).pathname) && response.status() === status) {
      count += 1;
    }
  });
  return () => count;
}

test('bug 2: deleting a template or a form goes back to the table without fetching the deleted item', async ({ page }) => {
  await signIn(page);

  await page.goto('/crm-mailing-template-add');
  await page.getByLabel('Template name').fill('Short-lived template');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-template-detail\/\d+$/);
  const templateGone = countAnswers(page, /^\/api\/crm-mailing-template\/\d+$/, 404);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page).toHaveURL(/\/crm-mailing-templates$/);
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Could not load the template')).toHaveCount(0);
  expect(templateGone()).toBe(0);

  await page.goto('/crm-form-add');
  await page.getByLabel('Form name').fill('Short-lived form');
  await page.getByLabel('New origin code').fill('short-lived-form');
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/crm-form-detail\/\d+$/);
  const formGone = countAnswers(page, /^\/api\/crm-form\/\d+$/, 404);
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page).toHaveURL(/\/crm-forms$/);
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Could not load the form')).toHaveCount(0);
  expect(formGone()).toBe(0);
});
