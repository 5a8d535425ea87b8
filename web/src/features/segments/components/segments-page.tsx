import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { useListSegments } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { changeLabel } from '../rule';

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
        <Table hover responsive size="sm" aria-label="Segments">
          <thead>
            <tr>
              <th>Name</th>
              <th className="text-end">Size</th>
              <th className="text-end">Change since last compute</th>
              <th>Last computed</th>
            </tr>
          </thead>
          <tbody>
            {(segments.data ?? []).map((s) => (
              <tr key={s.id}>
                <td>
                  <Link to={`/segments/detail?id=${s.id}`}>{s.name}</Link>
                  {s.standard && <span className="badge text-bg-secondary ms-2">Standard</span>}
                </td>
                <td className="text-end">{s.computed ? s.size.toLocaleString() : '—'}</td>
                <td className="text-end">{changeLabel(s.change)}</td>
                <td>{s.computed ? new Date(s.computed).toLocaleString() : 'Not computed yet'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
