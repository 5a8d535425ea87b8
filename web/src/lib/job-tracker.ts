import type { Job } from '@/api/gen/model';
import { createStore, useStore } from './store';

/**
 * Jobs the user is watching (progress banners, finished dialog). Any feature that starts a background job hands
 * it over with trackJob(job); the jobs feature polls it until it completes.
 */
export const POLL_JOBS_KEY = 'pollJobs';

export interface TrackedJob {
  id: number;
  /** The latest state from the server. */
  job: Job;
  /** Completed (a poll saw completed / status done). */
  finished: boolean;
  /** The finished-job dialog is showing for this job. */
  dialogOpen: boolean;
}

const store = createStore<TrackedJob[]>([]);

export const isJobFinished = (job: Job): boolean => job.completed || job.status === 'done';

/** The persisted flag says "some job was being polled": set while any tracked job is still running. */
function syncPollFlag(jobs: TrackedJob[]): void {
  if (jobs.some((j) => !j.finished)) localStorage.setItem(POLL_JOBS_KEY, '1');
  else localStorage.removeItem(POLL_JOBS_KEY);
}

function update(fn: (jobs: TrackedJob[]) => TrackedJob[]): void {
  store.set(fn);
  syncPollFlag(store.get());
}

/** Re-derives the persisted flag from the watched jobs (e.g. after a start-up found nothing to resume). */
export function refreshPollJobsFlag(): void {
  syncPollFlag(store.get());
}

export const shouldResumeJobs = (): boolean => localStorage.getItem(POLL_JOBS_KEY) !== null;

/** Starts watching a job (no-op when it is already watched). */
export function trackJob(job: Job): void {
  update((jobs) =>
    jobs.some((j) => j.id === job.id)
      ? jobs
      : [...jobs, { id: job.id, job, finished: isJobFinished(job), dialogOpen: isJobFinished(job) }],
  );
}

/** A poll answered: keep the latest state; the first time it is complete, open the finished dialog. */
export function updateTrackedJob(job: Job): void {
  update((jobs) =>
    jobs.map((j) => {
      if (j.id !== job.id) return j;
      const finished = isJobFinished(job);
      return { ...j, job, finished, dialogOpen: j.dialogOpen || (finished && !j.finished) };
    }),
  );
}

/** Stops watching a job: a failed poll, a dismissed banner, or a closed dialog of a successful job. */
export function untrackJob(id: number): void {
  update((jobs) => jobs.filter((j) => j.id !== id));
}

/** Closes the finished dialog; a failed job keeps its banner until dismissed. */
export function closeJobDialog(id: number): void {
  update((jobs) =>
    jobs.flatMap((j) => {
      if (j.id !== id) return [j];
      return j.job.success === false ? [{ ...j, dialogOpen: false }] : [];
    }),
  );
}

/** Forgets all watched jobs in memory (logout, switch client); the persisted flag stays for the next start-up. */
export function resetTrackedJobs(): void {
  store.set([]);
}

export const getTrackedJobs = (): TrackedJob[] => store.get();
export const useTrackedJobs = (): TrackedJob[] => useStore(store);
