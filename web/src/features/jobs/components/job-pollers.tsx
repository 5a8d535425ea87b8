import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getGetJobQueryKey, useGetJob } from '@/api/gen';
import { isJobFinished, untrackJob, updateTrackedJob, useTrackedJobs } from '@/lib/job-tracker';

/** Job poll interval: 1 second. */
export const JOB_POLL_INTERVAL_MS = 1000;

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

  useEffect(() => {
    if (!data) return;
    updateTrackedJob(data);
    // A finished job changed data the pages show (an upload's list exists only once its job succeeds).
    if (isJobFinished(data)) {
      const own = JSON.stringify(getGetJobQueryKey(id));
      void queryClient.invalidateQueries({ predicate: (query) => JSON.stringify(query.queryKey) !== own });
    }
  }, [data, dataUpdatedAt, id, queryClient]);

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
