import { expect, test, type Page } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';
import { signIn } from './helpers';

// Issue 17, item 12: no sideways scroll from 360 px up (the public form from 320 px); below 1000 px the sidenav is
// folded away behind its toggle, and Help, Settings and Account stay on screen and open.

const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

let fixtures: Fixtures;

test.beforeAll(async ({ request }) => {
  fixtures = await makeFixtures(request, `narrow${Date.now()}`);
});

test('the main screens fit 360, 800 and 1280 px windows and keep the header menus usable', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  const screens = [
    '/dashboard',
    '/crm-lists',
    `/crm-list-detail/${fixtures.listId}`,
    '/crm-mailings',
    `/crm-mailing-detail/${fixtures.mailingId}`,
    `/crm-form-detail/${fixtures.formId}`,
    '/contacts',
    '/revenue/contributions',
    '/flights',
    '/planning',
    '/email-analytics',
    '/reports',
    '/media',
    '/users/manage',
  ];
  for (const width of [360, 800, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of screens) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await sidewaysScroll(page), `sideways scroll on ${path} at ${width} px`).toBeLessThanOrEqual(0);
    }
    const sidenav = page.getByRole('complementary', { name: 'Side navigation' });
    const toggle = page.getByRole('button', { name: 'Toggle side navigation' });
    if (width < 1000) {
      await expect(sidenav).toHaveCount(0);
      await toggle.click();
      await expect(sidenav).toBeVisible();
      expect(await sidewaysScroll(page), `sideways scroll with the sidenav open at ${width} px`).toBeLessThanOrEqual(0);
      await toggle.click();
      await expect(sidenav).toHaveCount(0);
    } else {
      await expect(sidenav).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Help' })).toBeInViewport();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('link', { name: 'Manage Roles' })).toBeInViewport();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Account' }).click();
    await expect(page.getByRole('link', { name: 'Profile' })).toBeInViewport();
    await page.getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/users\/profile$/);
    if (width === 360) await page.screenshot({ path: '../../docs/screens/narrow-layout.png', fullPage: true });
  }
});

test('the public form fits a 320 px window', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`/form-viewer;id=${fixtures.formId};client=e2e`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign up' })).toBeInViewport();
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
});
