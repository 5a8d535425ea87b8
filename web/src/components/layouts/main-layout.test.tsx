import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/utils';
import { MainLayout } from './main-layout';
import { MAIN_NAV, accountOptions, filterNav, settingsLinks, type MenuUser, type PermissionSets } from './nav-items';

const noPerms: PermissionSets = { permissions: [], universalPermissions: [] };

function renderLayout(perms: MenuUser = noPerms, clientAuth = false) {
  return renderWithProviders(
    <MainLayout
      perms={perms}
      clientAuth={clientAuth}
      clientName="Acme for Congress"
      providerName="Example Agency"
      onSwitchClient={vi.fn()}
      onNavAction={vi.fn()}
    >
      <p>page</p>
    </MainLayout>,
    { route: '/dashboard' },
  );
}

const labels = (perms: PermissionSets) =>
  filterNav(MAIN_NAV, perms).flatMap((item) =>
    item.kind === 'link'
      ? [item.label]
      : item.items.flatMap((e) => (e.kind === 'section' ? e.items.map((l) => l.label) : [e.label])),
  );

describe('filterNav', () => {
  it('without permissions keeps only the CRM items and Journeys', () => {
    expect(labels(noPerms)).toEqual(['Journeys', 'Mailings', 'Lists', 'Forms', 'Templates']);
  });

  it('keeps the items whose permission the user has, from either permission set', () => {
    const result = labels({ permissions: ['pageSegments', 'pageMedia'], universalPermissions: ['pageReports'] });
    expect(result).toEqual(['Segments', 'Journeys', 'Mailings', 'Lists', 'Forms', 'Templates', 'Media', 'Reports']);
  });

  it('Contacts needs pageContacts for both its entries', () => {
    expect(labels({ permissions: ['pageContacts'], universalPermissions: [] })).toEqual(
      expect.arrayContaining(['Contact Search', 'NGP Saved List Import']),
    );
  });
});

describe('settingsLinks', () => {
  it('follows universal "view user", client "view user" and client "edit role"', () => {
    expect(settingsLinks(noPerms)).toEqual([]);
    expect(settingsLinks({ permissions: [], universalPermissions: ['view user'] }).map((l) => l.label)).toEqual([
      'Manage Universal Users',
    ]);
    expect(
      settingsLinks({ permissions: ['view user', 'edit role'], universalPermissions: [] }).map((l) => l.label),
    ).toEqual(['Manage Users', 'Manage Roles', 'System']);
  });

  it('offers the System page to those allowed to change settings ("edit role") (issue 17, bug 5)', () => {
    expect(settingsLinks({ permissions: ['edit role'], universalPermissions: [] })).toContainEqual({
      label: 'System',
      to: '/system',
    });
    const others = { permissions: ['view user', 'pageContacts'], universalPermissions: ['view user'] };
    expect(settingsLinks(others).map((l) => l.label)).not.toContain('System');
  });
});

describe('accountOptions', () => {
  const universal: MenuUser = { ...noPerms, kind: 'universal', canSwitchClient: true };

  it('offers Support Ticket outside a client-authenticated session, and Switch Client per canSwitchClient', () => {
    expect(accountOptions(universal, false)).toEqual({ supportTicket: true, switchClient: true });
    expect(accountOptions({ ...universal, canSwitchClient: false }, false)).toEqual({
      supportTicket: true,
      switchClient: false,
    });
  });

  it('a client user or the client-auth mode gets neither', () => {
    expect(accountOptions({ ...noPerms, kind: 'client', canSwitchClient: false }, false)).toEqual({
      supportTicket: false,
      switchClient: false,
    });
    expect(accountOptions(universal, true)).toEqual({ supportTicket: false, switchClient: false });
  });

  it('shows neither while the user is loading', () => {
    expect(accountOptions(undefined, false)).toEqual({ supportTicket: false, switchClient: false });
  });
});

describe('MainLayout', () => {
  it('shows the client name, the provider and the page', () => {
    renderLayout();
    expect(screen.getByText('Acme for Congress')).toBeInTheDocument();
    expect(screen.getByText('Example Agency')).toBeInTheDocument();
    expect(screen.getByText('page')).toBeInTheDocument();
  });

  it('hides menus the user has no permission for', () => {
    renderLayout();
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(within(header).getByRole('link', { name: 'Home' })).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Email' })).toBeInTheDocument();
    expect(within(header).queryByRole('button', { name: 'Revenue' })).not.toBeInTheDocument();
    expect(within(header).queryByRole('link', { name: 'Media' })).not.toBeInTheDocument();
    expect(within(header).queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('shows permitted menus with their items', async () => {
    renderLayout({ permissions: ['pageContributions', 'pageMedia', 'edit role'], universalPermissions: [] });
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(within(header).getByRole('link', { name: 'Media' })).toHaveAttribute('href', '/media');
    await userEvent.click(within(header).getByRole('button', { name: 'Revenue' }));
    expect(within(header).getByRole('link', { name: 'Contributions' })).toHaveAttribute(
      'href',
      '/revenue/contributions',
    );
    expect(screen.queryByRole('link', { name: 'Segments' })).not.toBeInTheDocument();
    await userEvent.click(within(header).getByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('link', { name: 'Manage Roles' })).toHaveAttribute('href', '/users/roles');
    expect(screen.queryByRole('link', { name: 'Manage Users' })).not.toBeInTheDocument();
  });

  it('has the CRM submenu under Email and the Account menu', async () => {
    renderLayout({ ...noPerms, kind: 'universal', canSwitchClient: true });
    const header = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(header).getByRole('button', { name: 'Email' }));
    const crm = within(header).getByRole('group', { name: 'CRM' });
    expect(within(crm).getByRole('link', { name: 'Lists' })).toHaveAttribute('href', '/crm-lists');
    expect(within(crm).getByRole('link', { name: 'Templates' })).toHaveAttribute('href', '/crm-mailing-templates');
    await userEvent.click(within(header).getByRole('button', { name: 'Account' }));
    expect(within(header).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/users/profile');
    expect(within(header).getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', '/jobs');
    expect(screen.getByRole('button', { name: 'Switch Client' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Support Ticket' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/auth/logout');
  });

  it('a client user gets no Support Ticket and no Switch Client', async () => {
    renderLayout({ ...noPerms, kind: 'client', canSwitchClient: false });
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.getByRole('link', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Support Ticket' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Switch Client' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Logout' })).toBeInTheDocument();
  });

  it('the client-auth mode hides Support Ticket and Switch Client for a universal user too', async () => {
    renderLayout({ ...noPerms, kind: 'universal', canSwitchClient: true }, true);
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.queryByRole('link', { name: 'Support Ticket' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Switch Client' })).not.toBeInTheDocument();
  });

  it('toggles the sidenav', async () => {
    renderLayout();
    const toggle = screen.getByRole('button', { name: 'Toggle side navigation' });
    const initiallyOpen = window.innerWidth >= 1000;
    expect(toggle).toHaveAttribute('aria-expanded', String(initiallyOpen));
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', String(!initiallyOpen));
    expect(screen.queryByRole('complementary', { name: 'Side navigation' }) !== null).toBe(!initiallyOpen);
  });

  it('below 1000 px the menus move from the header into a drawer closed by default (issue 17, item 12)', async () => {
    const width = window.innerWidth;
    window.innerWidth = 800;
    // jsdom has no matchMedia: an 800 px window's answers (max-width queries below 800 px do not match).
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: /max-width: (\d+)/.test(query) && Number(/max-width: (\d+)/.exec(query)?.[1]) >= 800,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
    }));
    try {
      renderLayout({ permissions: ['pageContacts'], universalPermissions: [] });
      const header = screen.getByRole('navigation', { name: 'Main' });
      // Hidden by Bootstrap's d-none (no stylesheet in jsdom).
      expect(within(header).getByRole('button', { name: 'Email' }).closest('.navbar-nav')).toHaveClass('d-none');
      expect(within(header).getByRole('button', { name: 'Account' })).toBeVisible();
      expect(screen.queryByRole('navigation', { name: 'Side navigation' })).not.toBeInTheDocument();
      const toggle = screen.getByRole('button', { name: 'Toggle side navigation' });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await userEvent.click(toggle);
      const drawer = await screen.findByRole('navigation', { name: 'Side navigation' });
      expect(within(drawer).getByRole('link', { name: 'Lists' })).toHaveAttribute('href', '/crm-lists');
      expect(within(drawer).getByRole('button', { name: 'NGP Saved List Import' })).toBeInTheDocument();
    } finally {
      window.innerWidth = width;
      vi.unstubAllGlobals();
    }
  });

  it('the dark theme toggle stores the choice and sets data-bs-theme', async () => {
    localStorage.setItem('theme', 'light');
    renderLayout();
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    await userEvent.click(screen.getByRole('button', { name: /theme/ }));
    const stored = localStorage.getItem('theme');
    expect(stored === 'dark' || stored === 'light').toBe(true);
    expect(document.documentElement.getAttribute('data-bs-theme')).toBe(stored);
  });
});
