import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import type { Fixtures } from './fixtures';
import { signIn } from './helpers';

/** The signed-in screens the responsive and accessibility walks visit (ids from makeFixtures). */
export function mainScreens(f: Fixtures): { name: string; path: string }[] {
  return [
    { name: 'dashboard', path: '/dashboard' },
    { name: 'lists', path: '/crm-lists' },
    { name: 'list detail', path: `/crm-list-detail/${f.listId}` },
    { name: 'new list', path: '/crm-list-add' },
    { name: 'contacts', path: '/contacts' },
    { name: 'contact', path: `/contacts/${f.contactId}` },
    { name: 'contact import', path: '/contacts/import' },
    { name: 'mailings', path: '/crm-mailings' },
    { name: 'mailing editor', path: `/crm-mailing-detail/${f.mailingId}` },
    { name: 'new mailing', path: '/crm-mailing-add' },
    { name: 'templates', path: '/crm-mailing-templates' },
    { name: 'template', path: `/crm-mailing-template-detail/${f.templateId}` },
    { name: 'forms', path: '/crm-forms' },
    { name: 'form', path: `/crm-form-detail/${f.formId}` },
    { name: 'manage users', path: '/users/manage' },
    { name: 'universal users', path: '/users/universal' },
    { name: 'roles', path: '/users/roles' },
    { name: 'profile', path: '/users/profile' },
    { name: 'system', path: '/system' },
    { name: 'jobs', path: '/jobs' },
    { name: 'source codes', path: '/revenue' },
    { name: 'contributions', path: '/revenue/contributions' },
    { name: 'segments', path: '/segments' },
    { name: 'origin codes', path: '/segments/origin-codes' },
    { name: 'flights', path: '/flights' },
    { name: 'experiments', path: '/experiments' },
    { name: 'planning', path: '/planning' },
    { name: 'email analytics', path: '/email-analytics' },
    { name: 'journeys', path: '/journeys' },
    { name: 'journey builder', path: '/journeys/new' },
    { name: 'media', path: '/media' },
    { name: 'projections', path: '/projections' },
    { name: 'reports', path: '/reports' },
  ];
}

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;
let session: { state: StorageState; at: number } | undefined;

/**
 * A signed-in browser context (the session of one real sign-in, renewed before the 15-minute access token ends), so
 * a walk over many screens signs in once rather than per screen.
 */
export async function signedInPage(browser: Browser, baseURL: string | undefined, options: BrowserContextOptions = {}): Promise<Page> {
  if (!session || Date.now() - session.at > 10 * 60_000) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await signIn(page);
    session = { state: await context.storageState(), at: Date.now() };
    await context.close();
  }
  const context = await browser.newContext({ ...options, baseURL, storageState: session.state });
  return context.newPage();
}

/** Waits until the page has drawn its content: the shell's main, no request in flight, no spinner. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('main').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.spinner-border')).toHaveCount(0);
}
