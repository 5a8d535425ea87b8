import { expect, test } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';
import { settled, sidewaysOverflow, signedInPage } from './screens';

// Issue 17, item 12: below 1000 px the sidenav is a drawer behind the header's toggle, and the public form viewer
// works from 320 px. That no signed-in screen scrolls sideways from 360 px up is checked by screen-walk.spec.ts.

let fixtures: Fixtures;

test.beforeAll(async ({ request }) => {
  fixtures = await makeFixtures(request, `narrow${Date.now()}`);
});

test('the public form fits a 320 px window', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`/form-viewer;id=${fixtures.formId};client=e2e`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign up' })).toBeInViewport();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});

test('below 1000 px the sidenav is a closed drawer that the toggle opens and a chosen page closes', async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, baseURL, { viewport: { width: 800, height: 740 } });
  await page.goto('/dashboard');
  await settled(page);
  const toggle = page.getByRole('button', { name: 'Toggle side navigation' });
  const sidenav = page.getByRole('navigation', { name: 'Side navigation' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(sidenav).toBeHidden();

  await toggle.click();
  await expect(sidenav).toBeVisible();
  await sidenav.getByRole('link', { name: 'Lists', exact: true }).click();
  await expect(page).toHaveURL(/\/crm-lists$/);
  await expect(page.getByRole('heading', { name: 'Lists' }).first()).toBeVisible();
  await expect(sidenav).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // The drawer also offers what the hidden header menus open in place (the NGP import dialog).
  await toggle.click();
  await sidenav.getByRole('button', { name: 'NGP Saved List Import' }).click();
  await expect(sidenav).toBeHidden();
  await expect(page.getByRole('dialog')).toBeVisible();

  // Widening the window past the breakpoint shows the sidenav beside the page again.
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1200, height: 740 });
  await expect(page.getByRole('complementary', { name: 'Side navigation' })).toBeVisible();
  await page.context().close();
});
