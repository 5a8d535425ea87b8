import { useEffect } from 'react';
import { useQueryClient, type Query } from '@tanstack/react-query';
import { useGetJob } from '@/api/gen';
import { isJobFinished, untrackJob, updateTrackedJob, useTrackedJobs } from '@/lib/job-tracker';

/** Job poll interval: 1 second. */
export const JOB_POLL_INTERVAL_MS = 1000;

/**
 * The client's data a finished job may have changed: every `/api/…` query (lists and their counts, contacts, origin
 * codes, the jobs page …), but not the job polls themselves. Only those on screen refetch at once.
 */
const changedByJobs = (query: Query): boolean => {
  const key = query.queryKey[0];
  return typeof key === 'string' && key.startsWith('/api/') && !key.startsWith('/api/jobs/');
};

function JobPoller({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const { data, isError, dataUpdatedAt } = useGetJob(id, {
    query: {
      retry: false,
      staleTime: 0,
      gcTime: 0,
      refetchInterval: (query) =>
        query.state.status === 'error' || query.state.data?.completed || query.state.data?.status === 'done'
          ? false
          : JOB_POLL_INTERVAL_MS,
      refetchIntervalInBackground: true,
    },
  });

  const ended = data !== undefined && isJobFinished(data);
  useEffect(() => {
    if (data) updateTrackedJob(data);
  }, [data, dataUpdatedAt]);

  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ predicate: changedByJobs });
  }, [ended, queryClient]);

  useEffect(() => {
    // A failed poll stops polling and drops the job.
    if (isError) untrackJob(id);
  }, [isError, id]);

  return null;
}

/** Polls every watched job that has not finished (renders nothing). */
export function JobPollers() {
  const jobs = useTrackedJobs();
  return jobs.filter((j) => !j.finished).map((j) => <JobPoller key={j.id} id={j.id} />);
}
