import { expect, test, type Page } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';
import { mainScreens, settled, signedInPage } from './screens';

// Issue 17, item 12: from 360 px up no signed-in screen scrolls sideways (wide tables scroll in their own box), Help,
// Settings and Account stay in view, and below 1000 px the sidenav is a drawer behind the header's toggle. The public
// form viewer works from 320 px.

const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

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

// The screen list needs the fixtures' ids, which exist only once beforeAll ran: the tests are made from names and
// look their path up when they run.
const SCREENS = mainScreens({ listId: 0, templateId: 0, formId: 0, mailingId: 0, contactId: 0 }).map((s) => s.name);

for (const name of SCREENS) {
  test(`${name} does not scroll sideways at 360 and 800 px`, async ({ browser, baseURL }) => {
    test.setTimeout(90_000);
    const { path } = mainScreens(fixtures).find((s) => s.name === name)!;
    const page = await signedInPage(browser, baseURL, { viewport: { width: 360, height: 740 } });
    for (const width of [360, 800]) {
      await page.setViewportSize({ width, height: 740 });
      await page.goto(path);
      await settled(page);
      const header = page.getByRole('navigation', { name: 'Main' });
      await expect(header.getByRole('button', { name: 'Account' })).toBeInViewport();
      await expect(header.getByRole('link', { name: 'Help' })).toBeInViewport();
      await expect(header.getByRole('button', { name: 'Settings' })).toBeInViewport();
      expect(await sidewaysOverflow(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
    }
    await page.context().close();
  });
}

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
