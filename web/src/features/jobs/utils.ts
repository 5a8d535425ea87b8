import type { Job } from '@/api/gen/model';

export const jobLabel = (job: Job): string => job.label || job.command;

/**
 * Where "View Result" leads: the result's own link, else the segment of an "Update Segment" job, the origin codes
 * after an "NGP Import", else the jobs page.
 */
export function jobResultLink(job: Job): string {
  const result = job.result;
  if (result?.link) return result.link;
  const name = jobLabel(job);
  if (name === 'Update Segment' && result?.segmentId != null) return `/segments/detail?id=${result.segmentId}`;
  if (name === 'NGP Import') return '/segments/origin-codes';
  return '/jobs';
}

export const isExternalLink = (link: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(link);

/** Jobs worth resuming at start-up: the user's own, created within the last hour, still active and not completed. */
export const RESUME_WINDOW_MS = 60 * 60 * 1000;

/** The signed-in user as a job's owner. */
export interface JobOwner {
  id: number;
  kind: string;
}

export function jobsToResume(jobs: readonly Job[], user: JobOwner, now: number = Date.now()): Job[] {
  return jobs.filter((job) => {
    const created = Date.parse(job.created);
    return (
      // Universal and client users are numbered apart: the id names the user only with its kind.
      job.user.id === user.id &&
      job.user.kind === user.kind &&
      !job.completed &&
      job.is_active &&
      Number.isFinite(created) &&
      now - created <= RESUME_WINDOW_MS
    );
  });
}

/** Said of a job queued for more than 10 s while no worker is live (the api's `waitingForWorker`). */
export const WAITING_FOR_WORKER = 'Waiting for a worker (none is running)';
