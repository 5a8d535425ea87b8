import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  downloadCrmList,
  getGetCrmListQueryKey,
  getListCrmListsQueryKey,
  useDeleteCrmList,
  useGetCrmList,
} from '@/api/gen';
import type { CrmList } from '@/api/gen/model';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { PageSpinner } from '@/components/page-spinner';
import { notifyError } from '@/lib/notifications';
import { useHasPermission } from '@/lib/use-permission';
import { saveTextFile } from '@/lib/download';
import { formatCount, formatDateTime } from '@/lib/format';
import { LISTS_CRUMBS } from './crm-lists-page';
import { ListMembers } from './list-members';
import { forgetDeleted } from '@/lib/forget-deleted';

function ListDetails({ list }: { list: CrmList }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [exporting, setExporting] = useState(false);
  // The members are contacts in bulk: the server lets only pageContacts export them.
  const canExport = useHasPermission('pageContacts');
  const remove = useDeleteCrmList({
    mutation: {
      meta: { errorMessage: 'Could not delete the list' },
      onSuccess: async () => {
        setConfirming(false);
        await forgetDeleted(queryClient, {
          item: getGetCrmListQueryKey(list.id),
          lists: [getListCrmListsQueryKey()],
          leave: () => navigate('/crm-lists'),
        });
      },
      onError: () => setConfirming(false),
    },
  });

  const exportCsv = async () => {
    setExporting(true);
    try {
      const csv = await downloadCrmList(list.id);
      saveTextFile(csv ?? '', `${list.name}.csv`, 'text/csv');
    } catch (error) {
      notifyError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <Card className="mb-3">
        <Card.Body>
          <dl className="row mb-0">
            <dt className="col-sm-3">Name</dt>
            <dd className="col-sm-9">{list.name}</dd>
            <dt className="col-sm-3">Count</dt>
            <dd className="col-sm-9">{formatCount(list.count)}</dd>
            <dt className="col-sm-3">Created</dt>
            <dd className="col-sm-9 mb-0">{formatDateTime(list.created)}</dd>
          </dl>
        </Card.Body>
      </Card>
      <div className="d-flex gap-2">
        {canExport && (
          <Button variant="outline-primary" onClick={() => void exportCsv()} disabled={exporting}>
            Export
          </Button>
        )}
        <Button variant="outline-danger" onClick={() => setConfirming(true)} disabled={remove.isPending}>
          Delete
        </Button>
      </div>
      <ConfirmDeleteDialog
        show={confirming}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ id: list.id })}
      />
      {canExport && <ListMembers list={list} />}
    </>
  );
}

/** One CRM list: name, count and created date, with Export (CSV) and Delete. */
export function CrmListDetail({ id }: { id: number }) {
  const valid = Number.isInteger(id) && id > 0;
  const list = useGetCrmList(id, { query: { enabled: valid, meta: { errorMessage: 'Could not load the list' } } });
  const title = list.data?.name ?? 'List';
  return (
    <>
      <Breadcrumbs crumbs={[...LISTS_CRUMBS, { label: title }]} />
      <h1 className="h3 mb-3">{title}</h1>
      {!valid || list.isError ? (
        <Alert variant="danger">
          {list.error?.status === 404 || !valid ? 'This list does not exist.' : 'Could not load the list.'}
        </Alert>
      ) : list.isPending ? (
        <PageSpinner label="Loading list" />
      ) : (
        <ListDetails list={list.data} />
      )}
    </>
  );
}
