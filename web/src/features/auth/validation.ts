import { INVALID_EMAIL_MESSAGE, isValidEmail } from '@/lib/validation';

export const REQUIRED_MESSAGE = 'You must enter a value';
export const LOGIN_PASSWORD_MIN = 2;
export const PASSWORD_TOO_SHORT_MESSAGE = `Password must be at least ${LOGIN_PASSWORD_MIN} characters`;

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

// Password, phone and e-mail rules are shared with the rest of the app.
export {
  PASSWORD_MISMATCH_MESSAGE,
  PASSWORD_RULE_MESSAGE,
  PHONE_MESSAGE,
  confirmPasswordError,
  isStrongPassword,
  isValidPhone,
  newPasswordError,
  normaliseEmail,
  phoneError,
} from '@/lib/validation';

export const INVALID_PASSCODE_MESSAGE = 'Invalid passcode';
export const CODE_LENGTH = 6;

export function requiredError(value: string): string | null {
  return value.trim() === '' ? REQUIRED_MESSAGE : null;
}

/** The one-time login code: 6 digits. */
export function codeError(value: string): string | null {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(value.trim()) ? null : INVALID_PASSCODE_MESSAGE;
}

