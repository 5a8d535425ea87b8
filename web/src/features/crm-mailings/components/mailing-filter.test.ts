import { describe, expect, it } from 'vitest';
import type { Mailing } from '@/api/gen/model';
import { mailingFilter } from './crm-mailings-table';

const now = new Date('2026-11-20T12:00:00Z');
const mailing = (name: string, over: Partial<Mailing>): Mailing =>
  ({ id: 1, name, subjectLine: '', isDraft: false, sendAttempt: null, sendTime: null, ...over }) as Mailing;

const all = [
  mailing('draft', { isDraft: true, sendTime: '2026-11-21T12:00:00Z' }),
  mailing('soon', { sendTime: '2026-11-22T12:00:00Z' }),
  mailing('later', { sendTime: '2026-12-10T12:00:00Z' }),
  mailing('past due', { sendTime: '2026-11-19T12:00:00Z' }),
  mailing('sent', { sendTime: '2026-11-10T12:00:00Z', sendAttempt: '2026-11-10T12:00:00Z' }),
];
const names = (query: string) => all.filter(mailingFilter(new URLSearchParams(query), now).keep).map((m) => m.name);

describe('the mailings filter the dashboard links with', () => {
  it('keeps what the "Upcoming sends (next 7 days)" tile counted', () => {
    expect(names('status=confirmed&within=7')).toEqual(['soon']);
  });
  it('keeps the sent mailings for "Last five mailings"', () => {
    expect(names('status=sent')).toEqual(['sent']);
  });
  it('keeps everything without a filter', () => {
    expect(names('')).toHaveLength(5);
  });
});
