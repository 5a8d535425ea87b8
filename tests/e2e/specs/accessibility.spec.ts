import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';
import { mainScreens, settled, signedInPage } from './screens';

// Issue 17, item 13: axe-core on the sign-in pages, the public form viewer and every signed-in screen, in the light
// and the dark theme; any serious or critical violation fails the walk (all of them are listed, not only the first).
// One test per screen and theme, so a slow screen cannot starve the others of time.

type Finding = string;

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.spinner-border')).toHaveCount(0);
}

/** Serious and critical violations on what the page shows now, one line per rule and element. */
async function scan(page: Page, where: string): Promise<Finding[]> {
  await settle(page);
  // Iframes hold the e-mail and form previews: the sender's own HTML, not the app's.
  const { violations } = await new AxeBuilder({ page }).exclude('iframe').analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.target.join(' ')} — ${n.failureSummary ?? ''}`));
}

let fixtures: Fixtures;

test.beforeAll(async ({ request }) => {
  fixtures = await makeFixtures(request, `axe${Date.now()}`);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the sign-in pages and the public form have no serious or critical axe violation in the ${theme} theme`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const findings: Finding[] = [];

    for (const path of ['/auth/login', '/auth/register?client=e2e', '/auth/register', '/auth/reset-password', '/auth/finish-registration']) {
      await page.goto(path);
      findings.push(...(await scan(page, path)));
    }
    await page.goto(`/form-viewer;id=${fixtures.formId};client=e2e`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    findings.push(...(await scan(page, 'form viewer')));
    await page.goto('/form-viewer;id=999999;client=e2e');
    findings.push(...(await scan(page, 'form viewer (not available)')));

    expect(findings, findings.join('\n')).toEqual([]);
  });
}

// The screens' list needs the fixtures' ids, which exist only once beforeAll ran: tests are made from the names.
const SCREENS = mainScreens({ listId: 0, templateId: 0, formId: 0, mailingId: 0, contactId: 0 }).map((s) => s.name);

for (const theme of ['light', 'dark'] as const) {
  for (const name of SCREENS) {
    test(`${name} has no serious or critical axe violation in the ${theme} theme`, async ({ browser, baseURL }) => {
      test.setTimeout(120_000);
      const { path } = mainScreens(fixtures).find((s) => s.name === name)!;
      const page = await signedInPage(browser, baseURL, { viewport: { width: 1280, height: 800 } });
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await page.goto(path);
      await settled(page);
      await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);
      const findings = await scan(page, `${path} (${theme})`);
      await page.context().close();
      expect(findings, findings.join('\n')).toEqual([]);
    });
  }
}

for (const theme of ['light', 'dark'] as const) {
  test(`the e-mail designer with a selected block has no serious or critical axe violation in the ${theme} theme`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    const page = await signedInPage(browser, baseURL, { viewport: { width: 1280, height: 800 } });
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
    await page.goto('/crm-mailing-template-add');
    await settled(page);
    await page.getByText('Designer', { exact: true }).click();
    await page.getByRole('button', { name: 'Add Heading' }).click();
    await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
    const findings = await scan(page, `designer (${theme})`);
    await page.context().close();
    expect(findings, findings.join('\n')).toEqual([]);
  });
}
