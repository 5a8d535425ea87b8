import { useEffect, useRef, useState } from 'react';
import { useListJobs } from '@/api/gen';
import { refreshPollJobsFlag, shouldResumeJobs, trackJob } from '@/lib/job-tracker';
import { jobsToResume, type JobOwner } from '../utils';

/**
 * At start-up (app load or client login): if the pollJobs flag is set, resume polling the current user's jobs
 * created within the last hour that are active and not completed.
 */
export function useResumeJobs(user: JobOwner | undefined): void {
  const [resume] = useState(shouldResumeJobs);
  const done = useRef(false);
  const { data } = useListJobs({ query: { enabled: resume && user !== undefined } });
  const id = user?.id;
  const kind = user?.kind;

  useEffect(() => {
    if (done.current || !data || id === undefined || kind === undefined) return;
    done.current = true;
    const jobs = jobsToResume(data, { id, kind });
    jobs.forEach(trackJob);
    // Nothing left to resume: the persisted flag follows what is watched now.
    refreshPollJobsFlag();
  }, [data, id, kind]);
}
