import { describe, expect, it } from 'vitest';
import { confirmPasswordError, isValidEmail, newPasswordError, normaliseEmail, phoneError } from './validation';

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

describe('the one e-mail rule', () => {
  it('accepts real addresses, trimmed and lower-cased as they are sent', () => {
    for (const good of ['  Ann.Lee+x@Example.ORG ', '<bob@mail.co.uk>', "o'neil@x-y.example.com", 'zoë@exämple.de']) {
      expect(isValidEmail(good), good).toBe(true);
    }
    expect(normaliseEmail('  Ann.Lee+x@Example.ORG ')).toBe('ann.lee+x@example.org');
    expect(normaliseEmail('<Bob@Mail.co.uk>')).toBe('bob@mail.co.uk');
  });

  it('refuses what the server refuses', () => {
    for (const bad of [
      '<b>@x.org',
      'a;b@x.org',
      '(c)a@x.org',
      'a..b@x.org',
      'a@-x.org',
      '',
      'no-at-sign',
      'a@b',
      'a@@b.org',
      'a b@c.org',
      '.a@x.org',
      'a@x-.org',
      'a@x_y.org',
      '"a b"@x.org',
      'a@[127.0.0.1]',
      'Ann <ann@x.org>',
      'a@x.org\u0000',
      `${'a'.repeat(65)}@x.org`,
      `a@${'b'.repeat(250)}.org`,
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });
});
