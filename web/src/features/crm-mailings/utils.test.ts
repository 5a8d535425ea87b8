import { describe, expect, it } from 'vitest';
import { fromDateTimeLocal, isEditable, mailingStatus, openRate, toDateTimeLocal } from './utils';

describe('mailingStatus', () => {
  it('is DRAFT for a draft, even after a send attempt', () => {
    expect(mailingStatus({ isDraft: true })).toBe('DRAFT');
    expect(mailingStatus({ isDraft: true, sendAttempt: '2026-01-01T00:00:00Z' })).toBe('DRAFT');
  });
  it('is SENT when a confirmed mailing has a send attempt, else CONFIRMED', () => {
    expect(mailingStatus({ isDraft: false, sendAttempt: '2026-01-01T00:00:00Z' })).toBe('SENT');
    expect(mailingStatus({ isDraft: false })).toBe('CONFIRMED');
    expect(mailingStatus({ isDraft: false, sendAttempt: null as unknown as undefined })).toBe('CONFIRMED');
  });
  it('only SENT mailings are read-only', () => {
    expect(isEditable({ isDraft: false, sendAttempt: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(isEditable({ isDraft: false })).toBe(true);
    expect(isEditable({ isDraft: true, sendAttempt: '2026-01-01T00:00:00Z' })).toBe(true);
  });
});

describe('openRate', () => {
  it('divides opens by recipients with 3 decimals', () => {
    expect(openRate(1, 3)).toBe('0.333');
    expect(openRate(2, 2)).toBe('1.000');
    expect(openRate(0, 7)).toBe('0.000');
  });
  it('is 0.000 without recipients', () => {
    expect(openRate(0, 0)).toBe('0.000');
    expect(openRate(5, 0)).toBe('0.000');
  });
});

describe('datetime-local conversion', () => {
  it('round-trips a local date-time through ISO', () => {
    const iso = fromDateTimeLocal('2026-05-06T07:08');
    expect(iso).toBe(new Date(2026, 4, 6, 7, 8).toISOString());
    expect(toDateTimeLocal(iso)).toBe('2026-05-06T07:08');
  });
  it('gives empty values for missing or invalid input', () => {
    expect(fromDateTimeLocal('')).toBeNull();
    expect(toDateTimeLocal(undefined)).toBe('');
    expect(toDateTimeLocal('nope')).toBe('');
  });
});
