import { describe, expect, it } from 'vitest';
import type { Job } from '@/api/gen/model';
import { jobResultLink, jobsToResume } from './utils';

const NOW = Date.parse('2026-11-22T12:00:00Z');

const job = (overrides: Partial<Job> = {}): Job => ({
  id: 1,
  _id: 1,
  label: 'Upload list',
  command: 'upload-list',
  status: 'running',
  progress: 10,
  completed: false,
  is_active: true,
  created: '2026-11-22T11:30:00Z',
  updated: '2026-11-22T11:31:00Z',
  user: { id: 7, kind: 'client' },
  ...overrides,
});

describe('jobsToResume', () => {
  it("keeps the user's active, unfinished jobs of the last hour", () => {
    const jobs = [
      job({ id: 1 }),
      job({ id: 2, user: { id: 8, kind: 'client' } }),
      job({ id: 3, completed: true, status: 'done' }),
      job({ id: 4, is_active: false }),
      job({ id: 5, created: '2026-11-22T10:59:00Z' }),
      job({ id: 6, user: { id: 7, kind: 'universal' } }),
    ];
    expect(jobsToResume(jobs, { id: 7, kind: 'client' }, NOW).map((j) => j.id)).toEqual([1]);
  });
});

describe('jobResultLink', () => {
  it('uses the result link when there is one', () => {
    expect(jobResultLink(job({ result: { message: 'ok', link: '/crm-lists/3', details: null } }))).toBe('/crm-lists/3');
  });

  it('leads an Update Segment job to the segment and an NGP Import to the origin codes', () => {
    expect(jobResultLink(job({ label: 'Update Segment', result: { message: 'ok', segmentId: 42, details: null } }))).toBe(
      '/segments/detail?id=42',
    );
    expect(jobResultLink(job({ label: 'NGP Import', result: { message: 'ok', details: null } }))).toBe(
      '/segments/origin-codes',
    );
    expect(jobResultLink(job({ result: { message: 'ok', details: null } }))).toBe('/jobs');
  });
});
