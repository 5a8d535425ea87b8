import { expect, test } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';
import { mainScreens, seriousAxeViolations, settled, sidewaysOverflow, signedInPage } from './screens';

// Issue 17, items 12 and 13, on every signed-in screen in one visit: opened on a 360 px phone, then widened to
// 800 px, no screen scrolls sideways (wide tables scroll in their own box) and Help, Settings and Account stay in
// view; at 1280 px axe-core finds no serious or critical violation in the light theme, nor after the Account menu
// switches to the dark theme. One load per screen keeps the walk short; one test per screen keeps a slow screen
// from starving the others of time.

let fixtures: Fixtures;

test.beforeAll(async ({ request }) => {
  fixtures = await makeFixtures(request, `walk${Date.now()}`);
});

// The screens' list needs the fixtures' ids, which exist only once beforeAll ran: tests are made from the names and
// look their path up when they run.
const SCREENS = mainScreens({ listId: 0, templateId: 0, formId: 0, mailingId: 0, contactId: 0 }).map((s) => s.name);

for (const name of SCREENS) {
  test(`${name}: no sideways scroll at 360 and 800 px, no serious axe violation in either theme`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const { path } = mainScreens(fixtures).find((s) => s.name === name)!;
    const page = await signedInPage(browser, baseURL, { viewport: { width: 360, height: 740 } });
    await page.addInitScript(() => localStorage.setItem('theme', 'light'));
    await page.goto(path);
    await settled(page);
    const header = page.getByRole('navigation', { name: 'Main' });
    for (const width of [360, 800]) {
      await page.setViewportSize({ width, height: 740 });
      await expect(header.getByRole('button', { name: 'Account' })).toBeInViewport();
      await expect(header.getByRole('link', { name: 'Help' })).toBeInViewport();
      await expect(header.getByRole('button', { name: 'Settings' })).toBeInViewport();
      // Layout follows a resize within a frame or two; poll rather than read once.
      await expect.poll(() => sidewaysOverflow(page), { message: `${path} at ${width} px` }).toBeLessThanOrEqual(0);
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'light');
    const findings = await seriousAxeViolations(page, `${path} (light)`);

    await header.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
    await expect(page.getByRole('button', { name: 'Light theme' })).toBeHidden();
    findings.push(...(await seriousAxeViolations(page, `${path} (dark)`)));
    await page.context().close();
    expect(findings, findings.join('\n')).toEqual([]);
  });
}
