import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { useCreateRetentionSegment, useListRetentionDonors } from '@/api/gen';
import type { RetentionCell } from '@/api/gen/model';
import { formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { notifySuccess } from '@/lib/notifications';
import { useHasPermission } from '@/lib/use-permission';
import { cellTitle } from '../utils';

const PAGE_SIZE = 50;

/** The donors behind a figure, a page at a time, and a segment made from them. Keyed by its cell, so another
 * figure opens a fresh dialog. */
export function DonorsDialog({ cell, onClose }: { cell: RetentionCell; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const canSegment = useHasPermission('pageSegments');
  const list = useListRetentionDonors({ mutation: { meta: { errorMessage: 'Could not load the donors' } } });
  const save = useCreateRetentionSegment({
    mutation: {
      meta: { errorMessage: 'Could not make the segment' },
      onSuccess: (r) => notifySuccess(`Segment saved with ${formatCount(r.contacts)} contacts`),
    },
  });
  const { mutate } = list;
  useEffect(() => {
    mutate({ data: cell, params: { page, pageSize: PAGE_SIZE } });
  }, [cell, page, mutate]);
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const amounts = cell.kind === 'retention';
  return (
    <Modal show onHide={onClose} size="lg" aria-labelledby="retention-donors-title">
      <Modal.Header closeButton>
        <Modal.Title id="retention-donors-title" className="h5">
          {cellTitle(cell)}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {list.isError && <Alert variant="danger">Could not load the donors.</Alert>}
        {data && (
          <>
            <p className="small mb-2" data-testid="donor-count">
              {formatCount(data.total)} donors
            </p>
            <Table size="sm" striped aria-label="Donors">
              <thead>
                <tr>
                  <th>E-mail</th>
                  <th>Name</th>
                  {amounts && <th className="text-end">Previous</th>}
                  {amounts && <th className="text-end">Current</th>}
                </tr>
              </thead>
              <tbody>
                {data.rows.map((d) => (
                  <tr key={`${d.contactId ?? ''}-${d.email ?? ''}`}>
                    <td>{d.contactId ? <Link to={`/contacts/${d.contactId}`}>{d.email}</Link> : d.email}</td>
                    <td>{d.name}</td>
                    {amounts && <td className="text-end">{formatMoney(d.previous)}</td>}
                    {amounts && <td className="text-end">{formatMoney(d.current)}</td>}
                  </tr>
                ))}
              </tbody>
            </Table>
            {pages > 1 && (
              <div className="d-flex gap-2 align-items-center mb-3">
                <Button size="sm" variant="outline-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous page
                </Button>
                <span className="small">
                  Page {page} of {pages}
                </span>
                <Button size="sm" variant="outline-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next page
                </Button>
              </div>
            )}
          </>
        )}
        {canSegment && (
          <Form
            className="d-flex flex-wrap align-items-end gap-2"
            aria-label="Make a segment"
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim()) save.mutate({ data: { name: name.trim(), cell } });
            }}
          >
            <Form.Group controlId="retention-segment-name">
              <Form.Label className="small mb-0">Segment name</Form.Label>
              <Form.Control size="sm" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
            </Form.Group>
            <Button size="sm" type="submit" disabled={!name.trim() || save.isPending}>
              Make a segment
            </Button>
            {save.data && (
              <Link className="small" to={`/segments/detail?id=${save.data.segmentId}`}>
                Open the segment
              </Link>
            )}
          </Form>
        )}
      </Modal.Body>
    </Modal>
  );
}
