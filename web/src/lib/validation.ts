/** Password and phone rules shared by registration, reset password and the profile (spec section 5). */

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
