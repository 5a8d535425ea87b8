import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Me } from '@/api/gen/model';
import { hasPermission } from '@/lib/permissions';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { PERMISSION_DENIED_MESSAGE, RequirePermission } from './require-permission';

const ME: Me = {
  id: 7,
  kind: 'universal',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '',
  twoFactorMethod: 'email',
  authenticatorEnrolled: false,
  permissions: ['pageContacts', 'view user'],
  universalPermissions: [],
  canSwitchClient: true,
};

function answerMe(me: Me | null) {
  server.use(
    http.get('/auth-api/session/me', () =>
      me ? HttpResponse.json(me) : HttpResponse.json({ message: 'Nope' }, { status: 500 }),
    ),
  );
}

describe('hasPermission', () => {
  const perms = { permissions: ['pageContacts', 'view user'], universalPermissions: ['pageReports'] };
  it('page permissions come from either set; client and universal ones from their own set only', () => {
    expect(hasPermission(perms, 'pageContacts')).toBe(true);
    expect(hasPermission(perms, 'pageReports')).toBe(true);
    expect(hasPermission(perms, 'pageMedia')).toBe(false);
    expect(hasPermission(perms, 'view user', 'client')).toBe(true);
    expect(hasPermission(perms, 'view user', 'universal')).toBe(false);
    expect(hasPermission({ permissions: [], universalPermissions: ['view user'] }, 'view user', 'client')).toBe(false);
    expect(hasPermission(undefined, 'pageContacts')).toBe(false);
  });
});

describe('RequirePermission', () => {
  it('renders the page for a user holding the permission', async () => {
    answerMe(ME);
    renderWithProviders(
      <RequirePermission permission="pageContacts">
        <p>secret page</p>
      </RequirePermission>,
    );
    expect(await screen.findByText('secret page')).toBeInTheDocument();
    expect(screen.queryByText(PERMISSION_DENIED_MESSAGE)).not.toBeInTheDocument();
  });

  it('shows the notice, not the page, to a user without it', async () => {
    answerMe(ME);
    renderWithProviders(
      <RequirePermission permission="pageMedia">
        <p>secret page</p>
      </RequirePermission>,
    );
    expect(await screen.findByText('You do not have permission to view this page')).toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });

  it('a client "view user" does not open a page needing the universal one', async () => {
    answerMe(ME);
    renderWithProviders(
      <RequirePermission permission="view user" scope="universal">
        <p>secret page</p>
      </RequirePermission>,
    );
    expect(await screen.findByText(PERMISSION_DENIED_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });

  it('never shows the page while the permissions are loading or when they fail to load', async () => {
    answerMe(null);
    renderWithProviders(
      <RequirePermission permission="pageContacts">
        <p>secret page</p>
      </RequirePermission>,
    );
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
    expect(await screen.findByText(PERMISSION_DENIED_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });
});
