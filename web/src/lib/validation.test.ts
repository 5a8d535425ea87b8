import { describe, expect, it } from 'vitest';
import { confirmPasswordError, newPasswordError, phoneError } from './validation';

const RULE = 'Should contain 8 or more characters and at least one of each of the following: number, upper case, lower case.';

describe('password rules', () => {
  it('needs 8 characters with a digit, a lower-case and an upper-case letter', () => {
    expect(newPasswordError('')).toBe('You must enter a value');
    expect(newPasswordError('Short1a')).toBe(RULE);
    expect(newPasswordError('nouppercase1')).toBe(RULE);
    expect(newPasswordError('NOLOWERCASE1')).toBe(RULE);
    expect(newPasswordError('NoDigitsHere')).toBe(RULE);
    expect(newPasswordError('Good-passw0rd')).toBeNull();
  });

  it('the confirmation must match', () => {
    expect(confirmPasswordError('Good-passw0rd', '')).toBe('You must enter a value');
    expect(confirmPasswordError('Good-passw0rd', 'Good-passw0rD')).toBe('Password does not match');
    expect(confirmPasswordError('Good-passw0rd', 'Good-passw0rd')).toBeNull();
  });
});

describe('phoneError', () => {
  it('is empty or 10 digits', () => {
    expect(phoneError('')).toBeNull();
    expect(phoneError('5551234567')).toBeNull();
    expect(phoneError('555123456')).toBe('Phone number should include only digits');
    expect(phoneError('555-123-4567')).toBe('Phone number should include only digits');
  });
});
