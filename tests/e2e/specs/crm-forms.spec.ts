import { expect, test, type Page } from '@playwright/test';
import { signIn, submitWhenBound } from './helpers';

/** The public link shown on the Confirm tab of a saved form. */
async function publicLink(page: Page): Promise<string> {
  await page.getByRole('tab', { name: 'Confirm' }).click();
  const link = await page.getByLabel('Public form link').inputValue();
  expect(link).toMatch(/\/form-viewer;id=\d+;client=e2e$/);
  return link;
}

test('a form with a new origin code collects a signup from the public viewer', async ({ page, browser, baseURL }) => {
  await signIn(page);
  await page.goto('/crm-forms');
  await page.getByRole('button', { name: 'Send Form' }).click();
  await expect(page).toHaveURL(/\/crm-form-add$/);

  await page.getByLabel('Form name').fill('Spring signup');
  await expect(page.getByRole('radio', { name: 'Create New' })).toBeChecked();
  await page.getByLabel('New origin code').fill('spring-form');
  const redirectUrl = `${baseURL}/auth/login?from=form`;
  await page.getByLabel('Redirect URL').fill(redirectUrl);
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await expect(page.getByRole('switch', { name: 'Enabled' })).toBeChecked();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-form-detail\/\d+$/);
  const link = await publicLink(page);

  // A visitor without any session.
  const visitor = await browser.newContext();
  try {
    const viewer = await visitor.newPage();
    await viewer.goto(link);
    const email = viewer.getByLabel('Email');
    await expect(email).toBeVisible();
    await email.fill('spring.visitor@example.org');
    await submitWhenBound(viewer, viewer.getByRole('button', { name: 'Sign up' }));
    await expect(viewer).toHaveURL(redirectUrl);
  } finally {
    await visitor.close();
  }

  // One view and one submission (views are flushed by the server within about a second).
  await expect(async () => {
    await page.goto('/crm-forms');
    const row = page.getByRole('row', { name: /Spring signup/ });
    await expect(row.getByRole('cell').nth(1)).toHaveText('ENABLED', { timeout: 1000 });
    await expect(row.getByRole('cell').nth(2)).toHaveText('1', { timeout: 1000 });
    await expect(row.getByRole('cell').nth(3)).toHaveText('1.00', { timeout: 1000 });
    await expect(row.getByRole('cell').nth(4)).toHaveText('spring-form', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  await page.getByRole('link', { name: 'Spring signup' }).click();
  await expect(page.getByRole('table', { name: 'Recent signups' })).toContainText('spring.visitor@example.org');

  await page.goto('/contacts');
  await expect(page.getByRole('link', { name: 'spring.visitor@example.org' })).toBeVisible();
});

test('a form body cannot run script in the public viewer', async ({ page, browser }) => {
  await signIn(page);
  await page.goto('/crm-form-add');
  await page.getByLabel('Form name').fill('XSS probe');
  await page.getByRole('tab', { name: 'HTML Editor' }).click();
  await page
    .getByLabel('Body HTML')
    .fill(
      '<img src=x onerror="window.__xss=1"><a href="javascript:window.__xss=1">x</a><script>window.__xss=1</script>' +
        '<form><input type="email" name="email"><button type="submit">Join</button></form>',
    );
  await page.getByRole('tab', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Form saved')).toBeVisible();
  await expect(page).toHaveURL(/\/crm-form-detail\/\d+$/);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  const link = await publicLink(page);

  const visitor = await browser.newContext();
  try {
    const viewer = await visitor.newPage();
    await viewer.goto(link);
    await expect(viewer.getByRole('link', { name: 'x' }).or(viewer.getByText('x', { exact: true })).first()).toBeVisible();
    // The broken image has failed to load (an onerror handler would have run by then).
    await expect
      .poll(() => viewer.evaluate(() => Array.from(document.images).every((img) => img.complete)), { timeout: 5_000 })
      .toBe(true);
    const link2 = viewer.getByText('x', { exact: true }).first();
    await link2.click().catch(() => undefined);
    // A javascript: link would run in a task queued by the click: let the page run its queued tasks and paint.
    await viewer.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    expect(await viewer.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  } finally {
    await visitor.close();
  }
});
