/** The header's menus (spec section 2, "Header, menus and shell") and their permission filter. */
import { EDIT_ROLE, VIEW_USER, hasPermission, type PermissionSets } from '@/lib/permissions';

export type { PermissionSets } from '@/lib/permissions';

export interface NavLinkItem {
  kind: 'link';
  label: string;
  to: string;
  /** Page permission needed (client or universal); none for CRM items. */
  permission?: string;
}

/** A menu entry that runs something in place (opens a dialog) instead of navigating. */
export interface NavActionItem {
  kind: 'action';
  label: string;
  action: 'ngp-import';
  permission?: string;
}

/** A titled group inside a menu (the CRM submenu). */
export interface NavSection {
  kind: 'section';
  label: string;
  items: NavLinkItem[];
}

export type NavMenuEntry = NavLinkItem | NavActionItem | NavSection;

export interface NavMenu {
  kind: 'menu';
  label: string;
  items: NavMenuEntry[];
}

export type NavTopItem = NavMenu | NavLinkItem;

export const MAIN_NAV: NavTopItem[] = [
  {
    kind: 'menu',
    label: 'Revenue',
    items: [
      { kind: 'link', label: 'Contributions', to: '/revenue/contributions', permission: 'pageContributions' },
      { kind: 'link', label: 'Retention', to: '/revenue/retention', permission: 'pageContributions' },
      { kind: 'link', label: 'Segments', to: '/segments', permission: 'pageSegments' },
    ],
  },
  {
    kind: 'menu',
    label: 'Attribution',
    items: [
      {
        kind: 'link',
        label: 'Contact Origin Codes',
        to: '/segments/origin-codes',
        permission: 'pageContactOriginCodes',
      },
      {
        kind: 'link',
        label: 'Contribution Source Codes',
        to: '/revenue',
        permission: 'pageContributionSourceCodes',
      },
    ],
  },
  {
    kind: 'menu',
    label: 'Email',
    items: [
      { kind: 'link', label: 'Planning', to: '/planning', permission: 'pagePlanning' },
      { kind: 'link', label: 'Performance', to: '/flights', permission: 'pagePerformance' },
      { kind: 'link', label: 'E-mail Analytics', to: '/email-analytics', permission: 'pagePerformance' },
      {
        kind: 'section',
        label: 'CRM',
        items: [
          { kind: 'link', label: 'Mailings', to: '/crm-mailings' },
          { kind: 'link', label: 'Lists', to: '/crm-lists' },
          { kind: 'link', label: 'Suppressions', to: '/suppressions', permission: 'pageContacts' },
          { kind: 'link', label: 'Forms', to: '/crm-forms' },
          { kind: 'link', label: 'Templates', to: '/crm-mailing-templates' },
        ],
      },
    ],
  },
  {
    kind: 'menu',
    label: 'Contacts',
    items: [
      { kind: 'link', label: 'Contact Search', to: '/contacts', permission: 'pageContacts' },
      { kind: 'action', label: 'NGP Saved List Import', action: 'ngp-import', permission: 'pageContacts' },
    ],
  },
  { kind: 'link', label: 'Media', to: '/media', permission: 'pageMedia' },
  { kind: 'link', label: 'Projections', to: '/projections', permission: 'pageProjections' },
  { kind: 'link', label: 'Reports', to: '/reports', permission: 'pageReports' },
];

/** What the menus need to know about the signed-in user (getMe's answer fits). */
export interface MenuUser extends PermissionSets {
  /** universal or client: a client user's session is client-authenticated (no Support Ticket). */
  kind?: string;
  /** Whether Switch Client is offered. */
  canSwitchClient?: boolean;
}

const allowed = (permission: string | undefined, perms: PermissionSets | undefined): boolean =>
  permission === undefined || hasPermission(perms, permission, 'page');

/** Keeps the items the user may open; page permissions are checked against both permission sets. */
export function filterNav(items: readonly NavTopItem[], perms: PermissionSets | undefined): NavTopItem[] {
  const result: NavTopItem[] = [];
  for (const item of items) {
    if (item.kind === 'link') {
      if (allowed(item.permission, perms)) result.push(item);
      continue;
    }
    const entries: NavMenuEntry[] = [];
    for (const entry of item.items) {
      if (entry.kind === 'section') {
        const links = entry.items.filter((l) => allowed(l.permission, perms));
        if (links.length > 0) entries.push({ ...entry, items: links });
      } else if (allowed(entry.permission, perms)) {
        entries.push(entry);
      }
    }
    if (entries.length > 0) result.push({ ...item, items: entries });
  }
  return result;
}

export interface SettingsLink {
  label: string;
  to: string;
}

/**
 * The Settings menu: universal "view user", client "view user" and client "edit role"; System (senders, app
 * settings) for "edit role", the permission the server asks for to change them.
 */
export function settingsLinks(perms: PermissionSets | undefined): SettingsLink[] {
  const links: SettingsLink[] = [];
  if (hasPermission(perms, VIEW_USER, 'universal')) {
    links.push({ label: 'Manage Universal Users', to: '/users/universal' });
  }
  if (hasPermission(perms, VIEW_USER, 'client')) links.push({ label: 'Manage Users', to: '/users/manage' });
  if (hasPermission(perms, EDIT_ROLE, 'client')) {
    links.push({ label: 'Manage Roles', to: '/users/roles' }, { label: 'System', to: '/system' });
  }
  return links;
}

export interface AccountOptions {
  supportTicket: boolean;
  switchClient: boolean;
}

/**
 * The Account menu's conditional items: Support Ticket only outside a client-authenticated session (a client user,
 * or the client-auth build mode); Switch Client when the user may switch (getMe's canSwitchClient).
 */
export function accountOptions(user: MenuUser | undefined, clientAuth: boolean): AccountOptions {
  const clientSession = clientAuth || user?.kind === 'client';
  return {
    supportTicket: user !== undefined && !clientSession,
    switchClient: user?.canSwitchClient === true && !clientAuth,
  };
}
