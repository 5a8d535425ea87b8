import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Me } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ProfilePage } from './profile-page';

const ME: Me = {
  id: 7,
  kind: 'universal',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '',
  twoFactorMethod: 'email',
  authenticatorEnrolled: false,
  permissions: [],
  universalPermissions: [],
  canSwitchClient: true,
};

// A QR code that would run a script if it were put into the page as markup.
const QR_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><script>window.pwned = true</script><rect width="4" height="4"/></svg>';

/** The server: the test's own answers first, then the signed-in user; anything else is not found. */
function serve(me: Me, ...handlers: HttpHandler[]) {
  server.use(
    ...handlers,
    http.all('/auth-api/session/me', () => HttpResponse.json(me)),
    http.all('*', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  );
}

/** The body of the first write (not a GET) to `url`. */
const bodyOf = async (url: string) => {
  await settled();
  return sent().find((r) => r.url === url && r.method !== 'GET')?.body;
};
afterEach(() => act(() => clearSnacks()));

const details = () => screen.getByRole('form', { name: 'Profile' });
const passwordForm = () => screen.getByRole('form', { name: 'Change password' });

describe('ProfilePage: details', () => {
  it('validates the phone, offers phone only with a valid one and saves: "Profile saved"', async () => {
    serve(
      ME,
      http.patch('/auth-api/session/profile', async ({ request }) =>
        HttpResponse.json({ ...ME, ...((await request.json()) as Partial<Me>) }),
      ),
    );
    renderWithProviders(<ProfilePage />);
    expect(await screen.findByDisplayValue('Ada')).toBeInTheDocument();
    const form = details();
    expect(within(form).getByDisplayValue('ada@example.org')).toHaveAttribute('readonly');
    const phoneRadio = within(form).getByRole('radio', { name: 'Phone' });
    const appRadio = within(form).getByRole('radio', { name: 'Authenticator app' });
    expect(within(form).getByRole('radio', { name: 'Email' })).toBeChecked();
    expect(phoneRadio).toBeDisabled();
    expect(appRadio).toBeDisabled();

    const phone = within(form).getByRole('textbox', { name: 'Phone' });
    await userEvent.type(phone, '555-12');
    expect(within(form).getByText('Phone number should include only digits')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(phoneRadio).toBeDisabled();

    await userEvent.clear(phone);
    await userEvent.type(phone, '5551234567');
    expect(within(form).queryByText('Phone number should include only digits')).not.toBeInTheDocument();
    expect(phoneRadio).toBeEnabled();
    await userEvent.click(phoneRadio);
    const lastName = within(form).getByRole('textbox', { name: 'Last name' });
    await userEvent.clear(lastName);
    await userEvent.type(lastName, 'King');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    expect(await bodyOf('/auth-api/session/profile')).toEqual({
      firstName: 'Ada',
      lastName: 'King',
      phone: '5551234567',
      twoFactorMethod: 'phone',
    });
    expect(within(details()).getByRole('radio', { name: 'Phone' })).toBeChecked();
  });

  it('clearing the phone while the phone method is chosen blocks saving', async () => {
    serve({ ...ME, phone: '5551234567', twoFactorMethod: 'phone' });
    renderWithProviders(<ProfilePage />);
    expect(await screen.findByDisplayValue('5551234567')).toBeInTheDocument();
    await userEvent.clear(within(details()).getByRole('textbox', { name: 'Phone' }));
    expect(within(details()).getByText('A phone number is needed for the phone method')).toBeInTheDocument();
    expect(within(details()).getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('asks to choose a two-factor method only once the user has touched the form (issue 17, bug 7)', async () => {
    serve({ ...ME, twoFactorMethod: 'none' });
    renderWithProviders(<ProfilePage />);
    const firstName = await within(await screen.findByRole('form', { name: 'Profile' })).findByLabelText('First name');
    expect(within(details()).queryByText('Choose a two-factor method')).not.toBeInTheDocument();
    await userEvent.type(firstName, 'n');
    expect(within(details()).getByText('Choose a two-factor method')).toBeInTheDocument();
    expect(within(details()).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.click(within(details()).getByRole('radio', { name: 'Email' }));
    expect(within(details()).queryByText('Choose a two-factor method')).not.toBeInTheDocument();
  });

  it("shows the server's refusal in the form", async () => {
    serve(
      ME,
      http.all('/auth-api/session/profile', () =>
        HttpResponse.json({ message: 'Phone number should include only digits' }, { status: 400 }),
      ),
    );
    renderWithProviders(<ProfilePage />);
    await userEvent.click(await within(await screen.findByRole('form', { name: 'Profile' })).findByRole('button', { name: 'Save' }));
    expect(await within(details()).findByRole('alert')).toHaveTextContent('Phone number should include only digits');
    expect(screen.queryByText('Profile saved')).not.toBeInTheDocument();
  });
});

describe('ProfilePage: password', () => {
  it('checks the rule and the confirmation, then changes the password: "Password changed"', async () => {
    serve(ME, http.all('/auth-api/session/password', () => new HttpResponse(null, { status: 204 })));
    renderWithProviders(<ProfilePage />);
    const form = await screen.findByRole('form', { name: 'Change password' });
    const submit = within(form).getByRole('button', { name: 'Change password' });
    await userEvent.type(within(form).getByLabelText('Current password'), 'Old-passw0rd');
    await userEvent.type(within(form).getByLabelText('New password'), 'weakpass');
    expect(within(form).getByLabelText('New password')).toHaveAccessibleDescription(
      'Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.',
    );
    expect(within(form).getByLabelText('New password')).toBeInvalid();
    expect(submit).toBeDisabled();

    await userEvent.clear(within(form).getByLabelText('New password'));
    await userEvent.type(within(form).getByLabelText('New password'), 'New-passw0rd');
    await userEvent.type(within(form).getByLabelText('Confirm new password'), 'New-passw0rX');
    expect(within(form).getByText('Password does not match')).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await userEvent.type(within(form).getByLabelText('Confirm new password'), '{Backspace}d');
    expect(within(form).queryByText('Password does not match')).not.toBeInTheDocument();
    await userEvent.click(submit);
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(await bodyOf('/auth-api/session/password')).toEqual({ currentPassword: 'Old-passw0rd', newPassword: 'New-passw0rd' });
    expect(within(passwordForm()).getByLabelText('Current password')).toHaveValue('');
  });

  it('shows "Current password is incorrect" from the server', async () => {
    serve(
      ME,
      http.all('/auth-api/session/password', () =>
        HttpResponse.json({ message: 'Current password is incorrect' }, { status: 400 }),
      ),
    );
    renderWithProviders(<ProfilePage />);
    const form = await screen.findByRole('form', { name: 'Change password' });
    await userEvent.type(within(form).getByLabelText('Current password'), 'wrong');
    await userEvent.type(within(form).getByLabelText('New password'), 'New-passw0rd');
    await userEvent.type(within(form).getByLabelText('Confirm new password'), 'New-passw0rd');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(screen.queryByText('Password changed')).not.toBeInTheDocument();
  });
});

describe('ProfilePage: authenticator app', () => {
  it('shows the QR code as an image (never as markup) and the secret, and confirms a code', async () => {
    let confirmed = false;
    serve(
      ME,
      http.all('/auth-api/session/authenticator', () =>
        HttpResponse.json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Compass:ada', qrSvg: QR_SVG }),
      ),
      http.all('/auth-api/session/authenticator/confirm', async ({ request }) => {
        const { code } = (await request.json()) as { code: string };
        if (code !== '123456') return HttpResponse.json({ message: 'Invalid passcode' }, { status: 400 });
        confirmed = true;
        return HttpResponse.json({ ...ME, authenticatorEnrolled: true, twoFactorMethod: 'app' });
      }),
      http.all('/auth-api/session/me', () =>
        confirmed ? HttpResponse.json({ ...ME, authenticatorEnrolled: true, twoFactorMethod: 'app' }) : undefined,
      ),
    );
    const { container } = renderWithProviders(<ProfilePage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Set up authenticator app' }));

    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    const src = qr.getAttribute('src')!;
    expect(src.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(atob(src.slice('data:image/svg+xml;base64,'.length))).toBe(QR_SVG);
    expect(container.querySelector('svg')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
    expect(screen.getByTestId('authenticator-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');

    const form = screen.getByRole('form', { name: 'Confirm authenticator app' });
    const confirm = within(form).getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(form).getByLabelText('Code'), '654321');
    await userEvent.click(confirm);
    expect(await within(form).findByRole('alert')).toHaveTextContent('Invalid passcode');

    await userEvent.clear(within(form).getByLabelText('Code'));
    await userEvent.type(within(form).getByLabelText('Code'), '123456');
    await userEvent.click(confirm);
    expect(await screen.findByText('Authenticator app enabled')).toBeInTheDocument();
    expect(await bodyOf('/auth-api/session/authenticator/confirm')).toEqual({ code: '654321' });
    await waitFor(() => expect(within(details()).getByRole('radio', { name: 'Authenticator app' })).toBeChecked());
    expect(within(details()).getByRole('radio', { name: 'Authenticator app' })).toBeEnabled();
    expect(screen.queryByRole('img', { name: 'QR code for your authenticator app' })).not.toBeInTheDocument();
  });
});
