import { createBrowserRouter, Outlet, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { PageSpinner } from '@/components/page-spinner';
import { RequirePermission } from '@/components/require-permission';
import { EDIT_ROLE, VIEW_USER, type PermissionScope } from '@/lib/permissions';
import { getClientId, getToken, storeRedirect } from '@/lib/session';
import type { PageHandle } from './route-handle';
import { RouteError } from './routes/route-error';

/** Product routes need a signed-in user with a chosen client; otherwise remember the address and go log in. */
export function requireClientSession({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (!getToken()) {
    storeRedirect(url.pathname + url.search + url.hash);
    throw redirect('/auth/login');
  }
  if (!getClientId()) {
    storeRedirect(url.pathname + url.search + url.hash);
    throw redirect('/auth/select-client');
  }
  return null;
}

/**
 * Pages behind a permission render only for a user holding it (a hidden menu item is not access control; the server
 * refuses the calls too). A pathless layout route around `children`.
 */
const guarded = (permission: string, scope: PermissionScope, children: RouteObject[]): RouteObject => ({
  element: (
    <RequirePermission permission={permission} scope={scope}>
      <Outlet />
    </RequirePermission>
  ),
  children,
});

const crm = (section: { label: string; to: string }, page?: string): PageHandle['crumbs'] => [
  { label: 'CRM' },
  { label: section.label, to: section.to },
  ...(page ? [{ label: page }] : []),
];

const LISTS = { label: 'Lists', to: '/crm-lists' };
const MAILINGS = { label: 'Mailings', to: '/crm-mailings' };
const TEMPLATES = { label: 'Templates', to: '/crm-mailing-templates' };
const FORMS = { label: 'Forms', to: '/crm-forms' };
const SUPPRESSIONS = { label: 'Suppressions', to: '/suppressions' };

const productRoutes: RouteObject[] = [
  { index: true, loader: () => redirect('/dashboard'), element: null },
  { path: 'dashboard', handle: { title: 'Dashboard' }, lazy: () => import('./routes/dashboard') },
  guarded('pagePlanning', 'page', [
    { path: 'planning', handle: { title: 'Planning' }, lazy: () => import('./routes/planning') },
  ]),
  guarded('pagePerformance', 'page', [
    { path: 'flights', handle: { title: 'Performance' }, lazy: () => import('./routes/email/flights') },
  ]),
  guarded('pagePerformance', 'page', [
    { path: 'experiments', handle: { title: 'Experiments' }, lazy: () => import('./routes/email/experiments') },
  ]),
  // Journeys are mailings that run by themselves: like the CRM mailings, no page permission (the server checks).
  { path: 'journeys', handle: { title: 'Journeys' }, lazy: () => import('./routes/journeys/index') },
  { path: 'journeys/new', handle: { title: 'New journey' }, lazy: () => import('./routes/journeys/new') },
  { path: 'journeys/:id', handle: { title: 'Journey' }, lazy: () => import('./routes/journeys/detail') },
  { path: 'journeys/:id/edit', handle: { title: 'Edit journey' }, lazy: () => import('./routes/journeys/edit') },
  guarded('pageContributionSourceCodes', 'page', [
    { path: 'revenue', handle: { title: 'Contribution Source Codes' }, lazy: () => import('./routes/revenue/source-codes') },
  ]),
  guarded('pageContributions', 'page', [
    {
      path: 'revenue/contributions',
      handle: { title: 'Contributions' },
      lazy: () => import('./routes/revenue/contributions'),
    },
    { path: 'revenue/retention', handle: { title: 'Retention' }, lazy: () => import('./routes/revenue/retention') },
  ]),
  guarded('pageContacts', 'page', [
    { path: 'contacts', handle: { title: 'Contact Search' }, lazy: () => import('./routes/contacts/search') },
    {
      path: 'contacts/import',
      handle: { title: 'Import contacts' },
      lazy: () => import('./routes/contacts/import'),
    },
    { path: 'contacts/:id', handle: { title: 'Contact' }, lazy: () => import('./routes/contacts/detail') },
  ]),
  guarded('pageSegments', 'page', [
    { path: 'segments', handle: { title: 'Segments' }, lazy: () => import('./routes/segments/index') },
    { path: 'segments/detail', handle: { title: 'Segment' }, lazy: () => import('./routes/segments/detail') },
  ]),
  guarded('pageContactOriginCodes', 'page', [
    {
      path: 'segments/origin-codes',
      handle: { title: 'Contact Origin Codes' },
      lazy: () => import('./routes/segments/origin-codes'),
    },
  ]),
  { path: 'jobs', lazy: () => import('./routes/jobs') },
  guarded('pageProjections', 'page', [
    { path: 'projections', handle: { title: 'Projections' }, lazy: () => import('./routes/projections') },
  ]),
  guarded('pageReports', 'page', [
    { path: 'reports', handle: { title: 'Reports' }, lazy: () => import('./routes/reports') },
  ]),
  { path: 'users', loader: () => redirect('/users/profile'), element: null },
  { path: 'users/profile', handle: { title: 'Profile' }, lazy: () => import('./routes/users/profile') },
  guarded(VIEW_USER, 'universal', [
    {
      path: 'users/universal',
      handle: { title: 'Manage Universal Users' },
      lazy: () => import('./routes/users/universal'),
    },
  ]),
  guarded(VIEW_USER, 'client', [
    { path: 'users/manage', handle: { title: 'Manage Users' }, lazy: () => import('./routes/users/manage') },
  ]),
  guarded(EDIT_ROLE, 'client', [
    { path: 'users/roles', handle: { title: 'Manage Roles' }, lazy: () => import('./routes/users/roles') },
  ]),
  guarded('pageMedia', 'page', [{ path: 'media', handle: { title: 'Media' }, lazy: () => import('./routes/media') }]),
  guarded('pagePerformance', 'page', [
    { path: 'email-analytics', handle: { title: 'E-mail Analytics' }, lazy: () => import('./routes/email-analytics') },
  ]),
  guarded(EDIT_ROLE, 'client', [{ path: 'system', handle: { title: 'System' }, lazy: () => import('./routes/system') }]),
  { path: 'crm-lists', handle: { title: 'Lists', crumbs: crm(LISTS) }, lazy: () => import('./routes/crm/lists') },
  // Suppressed addresses are contacts in bulk: the contacts permission, as for a list's members.
  guarded('pageContacts', 'page', [
    {
      path: 'suppressions',
      handle: { title: 'Suppressions', crumbs: crm(SUPPRESSIONS) },
      lazy: () => import('./routes/crm/suppressions'),
    },
  ]),
  {
    path: 'crm-list-add',
    handle: { title: 'Create List', crumbs: crm(LISTS, 'Create List') },
    lazy: () => import('./routes/crm/list-add'),
  },
  {
    path: 'crm-list-detail/:id',
    handle: { title: 'List', crumbs: crm(LISTS, 'List') },
    lazy: () => import('./routes/crm/list-detail'),
  },
  {
    path: 'crm-mailings',
    handle: { title: 'Mailings', crumbs: crm(MAILINGS) },
    lazy: () => import('./routes/crm/mailings'),
  },
  {
    path: 'crm-mailing-add',
    handle: { title: 'Send Mailing', crumbs: crm(MAILINGS, 'Send Mailing') },
    lazy: () => import('./routes/crm/mailing-add'),
  },
  {
    path: 'crm-mailing-detail/:id',
    handle: { title: 'Mailing', crumbs: crm(MAILINGS, 'Mailing') },
    lazy: () => import('./routes/crm/mailing-detail'),
  },
  {
    path: 'crm-mailing-templates',
    handle: { title: 'Templates', crumbs: crm(TEMPLATES) },
    lazy: () => import('./routes/crm/mailing-templates'),
  },
  {
    path: 'crm-mailing-template-add',
    handle: { title: 'Create Template', crumbs: crm(TEMPLATES, 'Create Template') },
    lazy: () => import('./routes/crm/mailing-template-add'),
  },
  {
    path: 'crm-mailing-template-detail/:id',
    handle: { title: 'Template', crumbs: crm(TEMPLATES, 'Template') },
    lazy: () => import('./routes/crm/mailing-template-detail'),
  },
  { path: 'crm-forms', handle: { title: 'Forms', crumbs: crm(FORMS) }, lazy: () => import('./routes/crm/forms') },
  {
    path: 'crm-form-add',
    handle: { title: 'Create Form', crumbs: crm(FORMS, 'Create Form') },
    lazy: () => import('./routes/crm/form-add'),
  },
  {
    path: 'crm-form-detail/:id',
    handle: { title: 'Form', crumbs: crm(FORMS, 'Form') },
    lazy: () => import('./routes/crm/form-detail'),
  },
];

const authRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./routes/auth/login') },
  { path: 'login', lazy: () => import('./routes/auth/login') },
  { path: 'select-client', lazy: () => import('./routes/auth/select-client') },
  { path: 'register', lazy: () => import('./routes/auth/register') },
  { path: 'reset-password', lazy: () => import('./routes/auth/reset-password') },
  { path: 'finish-registration', lazy: () => import('./routes/auth/finish-registration') },
  { path: 'logout', lazy: () => import('./routes/auth/logout') },
];

/** An address starting with /form-viewer (matrix parameters: `/form-viewer;id=5;client=demo`) is the form viewer. */
export const isFormViewerPath = (pathname: string): boolean => pathname.startsWith('/form-viewer');

/** Unknown paths go to the dashboard, except the form viewer's (public, no sign-in, no app shell). */
function unknownPathLoader({ request }: LoaderFunctionArgs) {
  if (isFormViewerPath(new URL(request.url).pathname)) return null;
  throw redirect('/dashboard');
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      { path: 'auth', lazy: () => import('./routes/auth/layout'), children: authRoutes },
      { path: 'form-viewer', lazy: () => import('./routes/form-viewer') },
      // Agency staff's clients side by side: before or after choosing a client, outside any client's shell.
      { path: 'portfolio', handle: { title: 'Portfolio' }, lazy: () => import('./routes/portfolio') },
      {
        path: '/',
        loader: requireClientSession,
        lazy: () => import('./routes/app/root'),
        children: productRoutes,
      },
      { path: '*', loader: unknownPathLoader, lazy: () => import('./routes/form-viewer') },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
