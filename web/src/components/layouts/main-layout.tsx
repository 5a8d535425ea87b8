import { useState, useSyncExternalStore, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link, NavLink, useLocation } from 'react-router';
import { SUPPORT_URL } from '@/lib/config';
import { setTheme, useTheme } from '@/lib/theme';
import {
  MAIN_NAV,
  accountOptions,
  filterNav,
  settingsLinks,
  type MenuUser,
  type NavActionItem,
  type NavMenuEntry,
  type NavTopItem,
} from './nav-items';

/** The sidenav is open by default on windows at least this wide. */
export const SIDENAV_BREAKPOINT_PX = 1000;

export const sidenavOpenByDefault = (): boolean => window.innerWidth >= SIDENAV_BREAKPOINT_PX;

const NARROW_QUERY = `(max-width: ${SIDENAV_BREAKPOINT_PX - 0.02}px)`;

function subscribeNarrow(onChange: () => void): () => void {
  const query = window.matchMedia?.(NARROW_QUERY);
  if (!query) return () => undefined;
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isNarrow = (): boolean => window.matchMedia?.(NARROW_QUERY).matches ?? !sidenavOpenByDefault();

/** Below the breakpoint the header keeps only Help, Settings and Account; the menus move into the sidenav drawer. */
const useNarrowWindow = (): boolean => useSyncExternalStore(subscribeNarrow, isNarrow);

export interface MainLayoutProps {
  /**
   * The signed-in user (getMe): permission sets, kind and canSwitchClient; undefined while loading (only
   * unrestricted items show).
   */
  perms?: MenuUser;
  userName?: string;
  clientName?: string;
  providerName?: string;
  /** The client-auth build mode: no Support Ticket and no Switch Client. */
  clientAuth?: boolean;
  onSwitchClient: () => void;
  onNavAction: (action: NavActionItem['action']) => void;
  /** Job progress banners and similar notices shown above the page. */
  banners?: ReactNode;
  children: ReactNode;
}

function MenuEntries({ entries, onNavAction }: { entries: NavMenuEntry[]; onNavAction: MainLayoutProps['onNavAction'] }) {
  return entries.map((entry) => {
    if (entry.kind === 'section') {
      return (
        <div key={entry.label} role="group" aria-label={entry.label}>
          <NavDropdown.Divider />
          <NavDropdown.Header>{entry.label}</NavDropdown.Header>
          {entry.items.map((link) => (
            <NavDropdown.Item key={link.to} as={Link} to={link.to}>
              {link.label}
            </NavDropdown.Item>
          ))}
        </div>
      );
    }
    if (entry.kind === 'action') {
      return (
        <NavDropdown.Item key={entry.label} as="button" onClick={() => onNavAction(entry.action)}>
          {entry.label}
        </NavDropdown.Item>
      );
    }
    return (
      <NavDropdown.Item key={entry.to} as={Link} to={entry.to}>
        {entry.label}
      </NavDropdown.Item>
    );
  });
}

/**
 * The sidenav lists the same pages as the header. On a wide window dialogs open from the header menus only; in the
 * narrow window's drawer (no header menus) `onNavAction` is given and they are buttons here too.
 */
function SidenavEntries({ items, onNavAction }: { items: NavTopItem[]; onNavAction?: MainLayoutProps['onNavAction'] }) {
  const link = (to: string, label: string) => (
    <Nav.Link key={to} as={NavLink} to={to} end>
      {label}
    </Nav.Link>
  );
  return items.map((item) => {
    if (item.kind === 'link') return link(item.to, item.label);
    const entries = item.items.filter((entry) => entry.kind !== 'action' || onNavAction);
    if (entries.length === 0) return null;
    return (
      <div key={item.label} className="mt-2">
        <div className="sidenav-heading text-uppercase small fw-semibold text-body-secondary px-3">{item.label}</div>
        {entries.map((entry) => {
          if (entry.kind === 'section') {
            return (
              <div key={entry.label} className="ms-2">
                <div className="small text-body-secondary px-3">{entry.label}</div>
                {entry.items.map((l) => link(l.to, l.label))}
              </div>
            );
          }
          if (entry.kind === 'action') {
            return (
              <Nav.Link key={entry.label} as="button" className="text-start" onClick={() => onNavAction?.(entry.action)}>
                {entry.label}
              </Nav.Link>
            );
          }
          return link(entry.to, entry.label);
        })}
      </div>
    );
  });
}

/** The product shell: header with menus, client-name row, sidenav, page, footer. */
export function MainLayout({
  perms,
  userName,
  clientName,
  providerName,
  clientAuth = false,
  onSwitchClient,
  onNavAction,
  banners,
  children,
}: MainLayoutProps) {
  const narrow = useNarrowWindow();
  const { pathname } = useLocation();
  // The user's toggle holds while the window stays on its side of the breakpoint (crossing it closes or reopens the
  // sidenav, as loading the page at that width would) and, in the narrow window's drawer, until a page is chosen.
  const [toggled, setToggled] = useState<{ narrow: boolean; pathname: string; open: boolean } | null>(null);
  const sidenavOpen =
    toggled !== null && toggled.narrow === narrow && (!narrow || toggled.pathname === pathname) ? toggled.open : !narrow;
  const setSidenavOpen = (open: boolean) => setToggled({ narrow, pathname, open });
  const theme = useTheme();
  const nav = filterNav(MAIN_NAV, perms);
  const settings = settingsLinks(perms);
  const account = accountOptions(perms, clientAuth);

  return (
    <div className="app-container">
      <header>
        <Navbar expand className="bg-body-tertiary border-bottom px-2" aria-label="Main">
          <Button
            variant="outline-secondary"
            size="sm"
            className="me-2"
            aria-label="Toggle side navigation"
            aria-expanded={sidenavOpen}
            aria-controls="sidenav"
            onClick={() => setSidenavOpen(!sidenavOpen)}
          >
            <span className="navbar-toggler-icon" aria-hidden="true" />
          </Button>
          <Navbar.Brand as={Link} to="/dashboard">
            Compass
          </Navbar.Brand>
          <Nav className={narrow ? 'd-none' : 'me-auto'}>
            <Nav.Link as={NavLink} to="/dashboard">
              Home
            </Nav.Link>
            {nav.map((item) =>
              item.kind === 'link' ? (
                <Nav.Link key={item.to} as={NavLink} to={item.to}>
                  {item.label}
                </Nav.Link>
              ) : (
                <NavDropdown key={item.label} title={item.label} id={`menu-${item.label.toLowerCase()}`}>
                  <MenuEntries entries={item.items} onNavAction={onNavAction} />
                </NavDropdown>
              ),
            )}
          </Nav>
          <Nav className="ms-auto">
            <Nav.Link href={SUPPORT_URL} target="_blank" rel="noreferrer">
              Help
            </Nav.Link>
            {settings.length > 0 && (
              <NavDropdown title="Settings" id="menu-settings" align="end">
                {settings.map((s) => (
                  <NavDropdown.Item key={s.to} as={Link} to={s.to}>
                    {s.label}
                  </NavDropdown.Item>
                ))}
              </NavDropdown>
            )}
            <NavDropdown title="Account" id="menu-account" align="end">
              {userName && <NavDropdown.Header>{userName}</NavDropdown.Header>}
              <NavDropdown.Item as={Link} to="/users/profile">
                Profile
              </NavDropdown.Item>
              <NavDropdown.Item as={Link} to="/jobs">
                Jobs
              </NavDropdown.Item>
              {account.supportTicket && (
                <NavDropdown.Item href={SUPPORT_URL} target="_blank" rel="noreferrer">
                  Support Ticket
                </NavDropdown.Item>
              )}
              {account.switchClient && (
                <NavDropdown.Item as="button" onClick={onSwitchClient}>
                  Switch Client
                </NavDropdown.Item>
              )}
              {account.switchClient && (
                <NavDropdown.Item as={Link} to="/portfolio">
                  Portfolio
                </NavDropdown.Item>
              )}
              <NavDropdown.Item as="button" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
                {theme === 'dark' ? 'Light theme' : 'Dark theme'}
              </NavDropdown.Item>
              <NavDropdown.Divider />
              <NavDropdown.Item as={Link} to="/auth/logout">
                Logout
              </NavDropdown.Item>
            </NavDropdown>
          </Nav>
        </Navbar>
        <div className="client-row border-bottom px-3 py-1 d-flex justify-content-between">
          <span className="fw-semibold" data-testid="client-name">
            {clientName}
          </span>
          {userName && <span className="text-body-secondary small">{userName}</span>}
        </div>
      </header>
      {banners}
      <div className="d-flex app-body">
        {narrow ? (
          <Offcanvas
            id="sidenav"
            show={sidenavOpen}
            onHide={() => setSidenavOpen(false)}
            placement="start"
            className="sidenav-drawer"
            aria-labelledby="sidenav-title"
          >
            <Offcanvas.Header closeButton closeLabel="Close navigation">
              <Offcanvas.Title id="sidenav-title" as="h2" className="h5">
                Navigation
              </Offcanvas.Title>
            </Offcanvas.Header>
            <Offcanvas.Body className="px-0 pt-0">
              <Nav as="nav" className="flex-column" aria-label="Side navigation">
                <Nav.Link as={NavLink} to="/dashboard" end>
                  Home
                </Nav.Link>
                <SidenavEntries
                  items={nav}
                  onNavAction={(action) => {
                    setSidenavOpen(false);
                    onNavAction(action);
                  }}
                />
              </Nav>
            </Offcanvas.Body>
          </Offcanvas>
        ) : (
          sidenavOpen && (
            <aside id="sidenav" className="sidenav border-end py-2" aria-label="Side navigation">
              <Nav className="flex-column">
                <Nav.Link as={NavLink} to="/dashboard" end>
                  Home
                </Nav.Link>
                <SidenavEntries items={nav} />
              </Nav>
            </aside>
          )
        )}
        <main className="flex-grow-1 p-3 app-main">{children}</main>
      </div>
      <footer className="border-top px-3 py-2 small text-body-secondary">{providerName}</footer>
    </div>
  );
}
