/** Texts of the spec's auth screens and error catalogue (word for word). */
export const UNABLE_TO_LOGIN = 'Unable to login';
export const UNABLE_TO_LOGIN_WITH_PASSWORD = 'Unable to login with password';
export const UNABLE_TO_LOGIN_WITH_GOOGLE = 'Unable to login with Google';
export const ERROR_SELECTING_CLIENT = 'Error selecting client';
export const TWO_FACTOR_PROMPT = 'Check your authenticator for a login code';
export const REGISTER_TITLE = 'Sign up for a Compass account';
export const REGISTRATION_PENDING = 'Registration received, check your email for a link to finish registration';
export const REGISTRATION_DUPLICATE = 'Email already exists. An admin has to enable this account';
export const EMAIL_VERIFIED = 'Email verified, an administrator now has to enable this account';
export const SEND_RESET_LINK = 'Send a reset link';
export const RESET_LINK_SENT = 'Check your email for a link to reset your password';
export const ENTER_NEW_PASSWORD = 'Enter a new password';
export const PASSWORD_UPDATED = 'Password updated, login with new credentials';
/** A failed sign-in on the plain login page: client users sign in through their organisation's link. */
export const USE_ORGANISATION_LINK =
  "Incorrect email or password. If your organisation uses Compass, sign in with your organisation's sign-in link.";
/** The register page without a client: registration belongs to an organisation. */
export const REGISTER_NEEDS_CLIENT =
  "To register, open your organisation's sign-in link and choose Register there. Ask your organisation for the link.";
