import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { makeFixtures, type Fixtures } from './fixtures';
import { EMAIL, PASSWORD } from './helpers';

// Issue 17, item 13: axe-core on every screen of web/src/app/router.tsx, in the light and the dark theme; any
// serious or critical violation fails the walk (all of them are listed, not only the first).

/** Every product route; `:id` routes get the fixtures' ids. */
const productPaths = (f: Fixtures): string[] => [
  '/dashboard',
  '/planning',
  '/flights',
  '/experiments',
  '/revenue',
  '/revenue/contributions',
  '/contacts',
  '/contacts/import',
  `/contacts/${f.contactId}`,
  '/segments',
  '/segments/detail',
  '/segments/origin-codes',
  '/jobs',
  '/projections',
  '/reports',
  '/users/profile',
  '/users/universal',
  '/users/manage',
  '/users/roles',
  '/media',
  '/email-analytics',
  '/system',
  '/crm-lists',
  '/crm-list-add',
  `/crm-list-detail/${f.listId}`,
  '/crm-mailings',
  '/crm-mailing-add',
  `/crm-mailing-detail/${f.mailingId}`,
  '/crm-mailing-templates',
  '/crm-mailing-template-add',
  `/crm-mailing-template-detail/${f.templateId}`,
  '/crm-forms',
  '/crm-form-add',
  `/crm-form-detail/${f.formId}`,
];

type Finding = string;

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.spinner-border')).toHaveCount(0);
}

/** Serious and critical violations on what the page shows now, one line per rule and element. */
async function scan(page: Page, where: string): Promise<Finding[]> {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.target.join(' ')} — ${n.failureSummary ?? ''}`));
}

let fixtures: Fixtures;

test.beforeAll(async ({ request }) => {
  fixtures = await makeFixtures(request, `axe${Date.now()}`);
});

for (const theme of ['light', 'dark'] as const) {
  test(`every screen has no serious or critical axe violation in the ${theme} theme`, async ({ page }) => {
    test.setTimeout(300_000);
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

    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/auth\/select-client/);
    findings.push(...(await scan(page, '/auth/select-client')));
    await page.getByLabel('Client').selectOption({ label: 'E2E Campaign' });
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).not.toHaveURL(/\/auth\//);
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);

    for (const path of productPaths(fixtures)) {
      await page.goto(path);
      findings.push(...(await scan(page, path)));
    }

    // Menus and dialogs.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Account' }).click();
    findings.push(...(await scan(page, 'Account menu')));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Contacts' }).click();
    await page.getByRole('button', { name: 'NGP Saved List Import' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    findings.push(...(await scan(page, 'NGP import dialog')));
    await page.keyboard.press('Escape');

    await page.goto(`/crm-form-detail/${fixtures.formId}`);
    for (const tab of ['HTML Editor', 'Style', 'Confirm']) {
      await page.getByRole('tab', { name: tab }).click();
      findings.push(...(await scan(page, `form editor, ${tab} tab`)));
    }
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    findings.push(...(await scan(page, 'confirm delete dialog')));

    expect(findings, findings.join('\n')).toEqual([]);
  });
}
