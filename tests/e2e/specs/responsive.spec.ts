import { expect, test, type Page } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';

// Issue 17, item 12: the public form viewer works from 320 px.

const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

let fixtures: Fixtures;

test.beforeAll(async ({ request }) => {
  fixtures = await makeFixtures(request, `narrow${Date.now()}`);
});

test('the public form fits a 320 px window', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`/form-viewer;id=${fixtures.formId};client=e2e`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign up' })).toBeInViewport();
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
});
