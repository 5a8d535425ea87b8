import Alert from 'react-bootstrap/Alert';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { Link } from 'react-router';
import { untrackJob, useTrackedJobs } from '@/lib/job-tracker';
import { jobLabel, WAITING_FOR_WORKER } from '../utils';

/** A progress banner per running job (or why it waits); a failed job's banner stays until dismissed. */
export function JobBanners() {
  const jobs = useTrackedJobs();
  const visible = jobs.filter((j) => !j.finished || j.job.success === false);
  if (visible.length === 0) return null;
  return (
    <div className="job-banners px-3 pt-2">
      {visible.map(({ id, job, finished }) => {
        const label = jobLabel(job);
        if (finished) {
          return (
            <Alert
              key={id}
              variant="danger"
              dismissible
              onClose={() => untrackJob(id)}
              closeLabel={`Dismiss ${label}`}
              className="py-2 mb-2"
            >
              <strong>{label}</strong> failed{job.error ? `: ${job.error}` : '.'}{' '}
              <Link to="/jobs" className="alert-link">
                Jobs
              </Link>
            </Alert>
          );
        }
        if (job.waitingForWorker) {
          return (
            <Alert key={id} variant="warning" className="py-2 mb-2" role="status">
              <div className="d-flex align-items-center gap-3">
                <strong className="text-nowrap">{label}</strong>
                <span className="flex-grow-1">{WAITING_FOR_WORKER}</span>
                <Link to="/jobs" className="alert-link text-nowrap">
                  View jobs
                </Link>
              </div>
            </Alert>
          );
        }
        const progress = Math.max(0, Math.min(100, Math.round(job.progress)));
        return (
          <Alert key={id} variant="info" className="py-2 mb-2" role="status">
            <div className="d-flex align-items-center gap-3">
              <strong className="text-nowrap">{label}</strong>
              <ProgressBar
                now={progress}
                label={`${progress}%`}
                className="flex-grow-1"
                aria-label={`${label} progress`}
                animated={job.status === 'running'}
              />
              <Link to="/jobs" className="alert-link text-nowrap">
                View jobs
              </Link>
            </div>
          </Alert>
        );
      })}
    </div>
  );
}
