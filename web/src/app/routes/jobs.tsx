import { JobsTable } from '@/features/jobs/components/jobs-table';

export function Component() {
  return (
    <>
      <h1 className="h3 mb-3">Jobs</h1>
      <JobsTable />
    </>
  );
}
