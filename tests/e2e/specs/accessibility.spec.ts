import { expect, test } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';
import { seriousAxeViolations, settled, signedInPage } from './screens';

// Issue 17, item 13: axe-core on the sign-in pages, the public form viewer and the e-mail designer, in the light and
// the dark theme; any serious or critical violation fails the walk (all of them are listed, not only the first).
// Every signed-in screen is scanned by screen-walk.spec.ts.

type Finding = string;
const scan = seriousAxeViolations;

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
