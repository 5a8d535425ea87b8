import Button from 'react-bootstrap/Button';
import { useRecountLists } from '@/api/gen';
import { trackJob } from '@/lib/job-tracker';

/** Starts the "Recount lists" background job and hands it to the job banners. */
export function RecountListsButton() {
  const recount = useRecountLists({ mutation: { onSuccess: (job) => trackJob(job) } });
  return (
    <Button variant="outline-primary" onClick={() => recount.mutate()} disabled={recount.isPending}>
      Recount list sizes
    </Button>
  );
}
