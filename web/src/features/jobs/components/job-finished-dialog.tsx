import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { Link } from 'react-router';
import { SUPPORT_URL } from '@/lib/config';
import { closeJobDialog, useTrackedJobs } from '@/lib/job-tracker';
import { isExternalLink, jobLabel, jobResultLink } from '../utils';

/** Opens when a watched job completes: "{label} finished" with View Result, or the error with Report Issue. */
export function JobFinishedDialog() {
  const jobs = useTrackedJobs();
  const current = jobs.find((j) => j.dialogOpen);
  if (!current) return null;
  const { id, job } = current;
  const label = jobLabel(job);
  const failed = job.success === false;
  const close = () => closeJobDialog(id);
  const link = jobResultLink(job);

  return (
    <Modal show onHide={close} centered aria-labelledby="job-finished-title">
      <Modal.Header>
        <Modal.Title id="job-finished-title">{failed ? `${label} failed` : `${label} finished`}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {failed ? (
          <p className="text-danger mb-0">{job.error || job.result?.message || 'The job failed.'}</p>
        ) : (
          job.result?.message && <p className="mb-0">{job.result.message}</p>
        )}
      </Modal.Body>
      <Modal.Footer>
        {failed ? (
          <a className="btn btn-outline-danger" href={SUPPORT_URL} target="_blank" rel="noreferrer">
            Report Issue
          </a>
        ) : isExternalLink(link) ? (
          <a className="btn btn-primary" href={link} target="_blank" rel="noreferrer" onClick={close}>
            View Result
          </a>
        ) : (
          <Link className="btn btn-primary" to={link} onClick={close}>
            View Result
          </Link>
        )}
        <Button variant="secondary" onClick={close}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
