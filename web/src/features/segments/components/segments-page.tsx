import { Link } from 'react-router';
import { useListSegments } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { changeLabel } from '../rule';
import { formatDateTime } from '@/lib/format';
import { columnsFor, DataTable } from '@/components/data-table';
import type { SegmentView } from '@/api/gen/model';

const col = columnsFor<SegmentView>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: ({ row: { original: s } }) => (
      <>
        <Link to={`/segments/detail?id=${s.id}`}>{s.name}</Link>
        {s.standard && <span className="badge text-bg-secondary ms-2">Standard</span>}
      </>
    ),
  }),
  col.display({
    id: 'size',
    header: 'Size',
    cell: ({ row: { original: s } }) => (s.computed ? s.size.toLocaleString() : '—'),
  }),
  col.accessor('change', { header: 'Change since last compute', cell: (info) => changeLabel(info.getValue()) }),
  col.accessor('computed', {
    header: 'Last computed',
    cell: (info) => {
      const computed = info.getValue();
      return computed ? formatDateTime(computed) : 'Not computed yet';
    },
  }),
]);

/** Revenue › Segments: every segment with its size, the change since the last compute, and when that was. */
export function SegmentsPage() {
  const segments = useListSegments({ query: { meta: { errorMessage: 'Could not load segments' } } });
  return (
    <>
      <div className="d-flex align-items-center mb-3">
        <h1 className="h3 mb-0">Segments</h1>
        <Link className="btn btn-primary btn-sm ms-auto" to="/segments/detail">
          Create segment
        </Link>
      </div>
      {segments.isPending ? (
        <PageSpinner label="Loading segments" />
      ) : (
        <DataTable
          label="Segments"
          columns={columns}
          data={segments.data ?? []}
          numeric={['size', 'change']}
          striped={false}
          hover
        />
      )}
    </>
  );
}
