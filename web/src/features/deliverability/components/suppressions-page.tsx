import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { getListSuppressionsQueryKey, useGetMe, useLiftSuppression, useListSuppressions } from '@/api/gen';
import { EDIT_ROLE, hasPermission } from '@/lib/permissions';
import type { SuppressionRow } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { downloadFile } from '@/lib/download';
import { formatDate } from '@/lib/format';
import { notifyCrmSuccess, notifyError } from '@/lib/notifications';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { AddSuppressionsDialog, ImportSuppressionsDialog } from './suppressions-dialogs';

const downloadEvidence = (id: number) =>
  downloadFile(`/api/delivery-evidence/${id}`, `evidence-${id}.txt`, { nameFromServer: true }).catch((e: unknown) =>
    notifyError(e),
  );

function Evidence({ row }: { row: SuppressionRow }) {
  const said = [row.statusCode, row.diagnostic].filter(Boolean).join(' ');
  return (
    <>
      {said && <div className="small text-break">{said}</div>}
      {row.evidenceId != null && (
        <Button variant="link" size="sm" className="p-0" onClick={() => void downloadEvidence(row.evidenceId as number)}>
          Download evidence
        </Button>
      )}
      {!said && row.evidenceId == null && (row.note ?? '—')}
    </>
  );
}

/** The row's actions travel in the row, so the columns stay fixed. */
type Row = SuppressionRow & { onLift: ((row: SuppressionRow) => void) | null };

const col = columnsFor<Row>();
const columns = col.columns([
  col.accessor('email', { header: 'Address' }),
  col.accessor('reasonText', { header: 'Reason' }),
  col.accessor('source', { header: 'Source' }),
  col.accessor('created', { header: 'Date', cell: (i) => formatDate(i.getValue()) }),
  col.display({
    id: 'mailing',
    header: 'Mailing',
    cell: ({ row: { original: r } }) =>
      r.mailingId != null ? <Link to={`/crm-mailing-detail/${r.mailingId}`}>{r.mailingName ?? `Mailing ${r.mailingId}`}</Link> : '—',
  }),
  col.display({ id: 'evidence', header: 'Evidence', cell: ({ row }) => <Evidence row={row.original} /> }),
  col.display({
    id: 'actions',
    header: () => <span className="visually-hidden">Actions</span>,
    cell: ({ row: { original: r } }) => {
      const onLift = r.onLift;
      return onLift ? (
        <Button size="sm" variant="outline-danger" aria-label={`Lift ${r.email}`} onClick={() => onLift(r)}>
          Lift
        </Button>
      ) : null;
    },
  }),
]);

/** Addresses no mailing may mail: searched, lifted (after a confirmation), added by hand, imported and exported. */
export function SuppressionsPage() {
  const queryClient = useQueryClient();
  // Lifting, importing and exporting the list are the administrator's; anyone who keeps the contacts may add.
  const admin = hasPermission(useGetMe().data, EDIT_ROLE, 'client');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [lifting, setLifting] = useState<SuppressionRow | null>(null);
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  const q = useDebouncedValue(search.trim(), 300);
  const params = { ...(q ? { q } : {}), page };
  const list = useListSuppressions(params, {
    query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load the suppressions' } },
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListSuppressionsQueryKey() });
  const lift = useLiftSuppression({
    mutation: {
      meta: { errorMessage: 'Could not lift the suppression' },
      onSuccess: async () => {
        notifyCrmSuccess(`${lifting?.email ?? 'The address'} may be mailed again`);
        setLifting(null);
        await refresh();
      },
    },
  });
  const data = list.data;
  const rows: Row[] = (data?.suppressions ?? []).map((s) => ({ ...s, onLift: admin ? setLifting : null }));

  return (
    <>
      <div className="d-flex align-items-center justify-content-between flex-wrap gap-2 mb-3">
        <h1 className="h3 mb-0">Suppressions</h1>
        <div className="d-flex gap-2">
          <Button onClick={() => setDialog('add')}>Add addresses</Button>
          {admin && (
            <>
              <Button variant="outline-primary" onClick={() => setDialog('import')}>
                Import CSV
              </Button>
              <Button
                variant="outline-secondary"
                onClick={() =>
                  void downloadFile('/api/suppressions/export', 'suppressions.csv').catch((e: unknown) =>
                    notifyError(e),
                  )
                }
              >
                Export CSV
              </Button>
            </>
          )}
        </div>
      </div>
      <p className="text-body-secondary">
        No mailing, list or segment sends to these addresses. Hard bounces and spam complaints are added at once, soft
        bounces after the limit in Settings.
      </p>
      <Form.Group className="mb-2" controlId="suppressions-search" style={{ maxWidth: '24rem' }}>
        <Form.Label className="visually-hidden">Search suppressions</Form.Label>
        <Form.Control
          type="search"
          placeholder="Search by address"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </Form.Group>
      {list.isError ? (
        <Alert variant="danger">Could not load the suppressions.</Alert>
      ) : (
        <div className="table-responsive">
          <DataTable
            label="Suppressions"
            columns={columns}
            data={rows}
            getRowId={(r) => String(r.id)}
            empty={data ? (q ? 'No suppression matches the search.' : 'No address is suppressed.') : undefined}
            cellClassName={{ actions: 'text-end', email: 'text-break' }}
            ariaBusy={list.isFetching}
            striped={false}
            paging={data ? { page, pageSize: data.pageSize, total: data.total, onPageChange: setPage } : undefined}
          />
        </div>
      )}
      <Modal show={lifting !== null} onHide={() => setLifting(null)} centered aria-labelledby="lift-title">
        <Modal.Header closeButton>
          <Modal.Title id="lift-title">Lift suppression</Modal.Title>
        </Modal.Header>
        <Modal.Body>Mail {lifting?.email} again? This is recorded in the audit trail.</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setLifting(null)} disabled={lift.isPending}>
            No, keep
          </Button>
          <Button
            variant="danger"
            disabled={lift.isPending}
            onClick={() => lifting && lift.mutate({ id: lifting.id })}
          >
            Yes, lift
          </Button>
        </Modal.Footer>
      </Modal>
      <AddSuppressionsDialog show={dialog === 'add'} onClose={() => setDialog(null)} onDone={refresh} />
      <ImportSuppressionsDialog show={dialog === 'import'} onClose={() => setDialog(null)} onDone={refresh} />
    </>
  );
}
