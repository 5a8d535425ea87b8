/** Password, phone and e-mail rules shared by every form that checks them (spec section 5). */

export const PASSWORD_RULE_MESSAGE =
  'Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.';
export const PASSWORD_MISMATCH_MESSAGE = 'Password does not match';
export const PHONE_MESSAGE = 'Phone number should include only digits';
export const REQUIRED_PASSWORD_MESSAGE = 'You must enter a value';

export const PASSWORD_MIN_LENGTH = 8;
export const PHONE_DIGITS = 10;

/** At least 8 characters with a digit, a lower-case and an upper-case letter. */
export const isStrongPassword = (value: string): boolean =>
  [...value].length >= PASSWORD_MIN_LENGTH && /\d/.test(value) && /\p{Ll}/u.test(value) && /\p{Lu}/u.test(value);

/** The new-password error, or null: required, then the strength rule. */
export function newPasswordError(value: string): string | null {
  if (value === '') return REQUIRED_PASSWORD_MESSAGE;
  return isStrongPassword(value) ? null : PASSWORD_RULE_MESSAGE;
}

/** The confirm-password error, or null: required and equal to the password. */
export function confirmPasswordError(password: string, confirm: string): string | null {
  if (confirm === '') return REQUIRED_PASSWORD_MESSAGE;
  return confirm === password ? null : PASSWORD_MISMATCH_MESSAGE;
}

/** Ten digits (surrounding blanks ignored). */
export const isValidPhone = (value: string): boolean => new RegExp(`^\\d{${PHONE_DIGITS}}$`).test(value.trim());

/** An optional phone: empty, or ten digits. */
export const phoneError = (value: string): string | null =>
  value.trim() === '' || isValidPhone(value) ? null : PHONE_MESSAGE;

export const INVALID_EMAIL_MESSAGE = 'Not a valid email';

const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;
const LABEL_MAX_LENGTH = 63;
/** RFC 5322 atext: letters and digits of any script and these symbols. */
const ATOM = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+$/u;
const LABEL = /^[\p{L}\p{N}]([\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
const utf8Length = (value: string): number => new TextEncoder().encode(value).length;

/** An address as it is sent and stored: trimmed, lower-cased, one pair of enclosing angle brackets dropped. */
export function normaliseEmail(value: string): string {
  const trimmed = value.trim();
  const inner = trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1) : trimmed;
  return inner.trim().toLowerCase();
}

/**
 * The one e-mail rule of the web app, the server's (the `domain` crate's `Email`): local@domain.tld, the local
 * part dot-separated atoms (no quotes, comments or brackets), the domain two or more labels of letters, digits
 * and inner hyphens.
 */
export function isValidEmail(value: string): boolean {
  const email = normaliseEmail(value);
  if (email === '' || utf8Length(email) > EMAIL_MAX_LENGTH) return false;
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  return (
    utf8Length(local) <= LOCAL_PART_MAX_LENGTH &&
    local.split('.').every((atom) => ATOM.test(atom)) &&
    labels.length >= 2 &&
    labels.every((label) => label.length <= LABEL_MAX_LENGTH && LABEL.test(label))
  );
}

