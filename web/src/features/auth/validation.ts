export const REQUIRED_MESSAGE = 'You must enter a value';
export const INVALID_EMAIL_MESSAGE = 'Not a valid email';
export const LOGIN_PASSWORD_MIN = 2;
export const PASSWORD_TOO_SHORT_MESSAGE = `Password must be at least ${LOGIN_PASSWORD_MIN} characters`;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/;

export const isValidEmail = (value: string): boolean => EMAIL_PATTERN.test(value.trim());

export function emailError(value: string): string | null {
  if (value.trim() === '') return REQUIRED_MESSAGE;
  if (!isValidEmail(value)) return INVALID_EMAIL_MESSAGE;
  return null;
}

export function loginPasswordError(value: string): string | null {
  if (value === '') return REQUIRED_MESSAGE;
  if (value.length < LOGIN_PASSWORD_MIN) return PASSWORD_TOO_SHORT_MESSAGE;
  return null;
}

export const PASSWORD_RULE_MESSAGE =
  'Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.';
export const PASSWORD_MISMATCH_MESSAGE = 'Password does not match';
export const PHONE_MESSAGE = 'Phone number should include only digits';
export const INVALID_PASSCODE_MESSAGE = 'Invalid passcode';
export const PASSWORD_MIN = 8;
export const CODE_LENGTH = 6;
export const PHONE_LENGTH = 10;

/** At least 8 characters with a digit, a lower-case and an upper-case letter (the server's rule). */
export const isStrongPassword = (value: string): boolean =>
  [...value].length >= PASSWORD_MIN && /\d/.test(value) && /\p{Ll}/u.test(value) && /\p{Lu}/u.test(value);

/** Register and reset: required, then the strength rule. */
export function newPasswordError(value: string): string | null {
  if (value === '') return REQUIRED_MESSAGE;
  if (!isStrongPassword(value)) return PASSWORD_RULE_MESSAGE;
  return null;
}

export function confirmPasswordError(password: string, confirm: string): string | null {
  if (confirm === '') return REQUIRED_MESSAGE;
  if (confirm !== password) return PASSWORD_MISMATCH_MESSAGE;
  return null;
}

/** Phone is optional; when given it is exactly 10 digits. */
export const isValidPhone = (value: string): boolean => new RegExp(`^\\d{${PHONE_LENGTH}}$`).test(value.trim());

export function phoneError(value: string): string | null {
  if (value.trim() === '') return null;
  return isValidPhone(value) ? null : PHONE_MESSAGE;
}

export function requiredError(value: string): string | null {
  return value.trim() === '' ? REQUIRED_MESSAGE : null;
}

/** The one-time login code: 6 digits. */
export function codeError(value: string): string | null {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(value.trim()) ? null : INVALID_PASSCODE_MESSAGE;
}

/** E-mail as it is sent: trimmed and lower-cased. */
export const normaliseEmail = (value: string): string => value.trim().toLowerCase();
