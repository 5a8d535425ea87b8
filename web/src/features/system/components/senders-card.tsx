import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListSenderNamesQueryKey,
  getListSendersQueryKey,
  useCreateSender,
  useDeleteSender,
  useListSenders,
} from '@/api/gen';
import type { Sender, SenderInput } from '@/api/gen/model';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { EmptyState } from '@/components/empty-state';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';
import { INVALID_EMAIL_MESSAGE, isValidEmail } from '@/lib/validation';
import { forgetDeleted } from '@/lib/forget-deleted';
import { columnsFor, DataTable } from '@/components/data-table';

/** The "Add sender" form: name, from address and an optional reply-to. */
function AddSenderForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [fromAddress, setFromAddress] = useState('');
  const [replyTo, setReplyTo] = useState('');
  const create = useCreateSender({
    mutation: {
      meta: { errorMessage: 'Could not add the sender' },
      onSuccess: async () => {
        setName('');
        setFromAddress('');
        setReplyTo('');
        notifySuccess('Sender added');
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: getListSendersQueryKey() }),
          queryClient.invalidateQueries({ queryKey: getListSenderNamesQueryKey() }),
        ]);
      },
    },
  });

  const fromValid = isValidEmail(fromAddress);
  const fromInvalid = fromAddress.trim() !== '' && !fromValid;
  const replyValid = replyTo.trim() === '' || isValidEmail(replyTo);
  const valid = name.trim() !== '' && fromValid && replyValid;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || create.isPending) return;
    const data: SenderInput = { name: name.trim(), fromAddress: fromAddress.trim() };
    if (replyTo.trim()) data.replyTo = replyTo.trim();
    create.mutate({ data });
  };

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="Add sender">
      <h3 className="h6">Add sender</h3>
      <div className="row g-2 align-items-end">
        <Form.Group className="col-md-3" controlId="sender-name">
          <Form.Label>Name</Form.Label>
          <Form.Control value={name} maxLength={200} onChange={(e) => setName(e.target.value)} required />
        </Form.Group>
        <Field
          id="sender-from"
          label="From address"
          className="col-md-3"
          type="email"
          value={fromAddress}
          maxLength={320}
          onChange={(e) => setFromAddress(e.target.value)}
          required
          invalid={fromInvalid}
          error={INVALID_EMAIL_MESSAGE}
        />
        <Field
          id="sender-reply-to"
          label="Reply-to (optional)"
          className="col-md-3"
          type="email"
          value={replyTo}
          maxLength={320}
          onChange={(e) => setReplyTo(e.target.value)}
          invalid={!replyValid}
          error={INVALID_EMAIL_MESSAGE}
        />
        <div className="col-md-3">
          <Button type="submit" disabled={!valid || create.isPending}>
            Add sender
          </Button>
        </div>
      </div>
    </Form>
  );
}

/** The client's e-mail senders: a table with Delete per row, and the "Add sender" form. */
const col = columnsFor<Sender>();

export function SendersCard() {
  const queryClient = useQueryClient();
  const senders = useListSenders({ query: { meta: { errorMessage: 'Could not load senders' } } });
  const [deleting, setDeleting] = useState<number | null>(null);
  const remove = useDeleteSender({
    mutation: {
      meta: { errorMessage: 'Could not delete the sender' },
      onSuccess: async () => {
        setDeleting(null);
        await forgetDeleted(queryClient, { lists: [getListSendersQueryKey(), getListSenderNamesQueryKey()] });
      },
      onError: () => setDeleting(null),
    },
  });

  const columns = col.columns([
    col.accessor('name', { header: 'Name' }),
    col.accessor('fromAddress', { header: 'From address' }),
    col.accessor('replyTo', { header: 'Reply-to', cell: (info) => info.getValue() ?? '' }),
    col.display({
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      cell: ({ row: { original: sender } }) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`Delete ${sender.name}`}
          onClick={() => setDeleting(sender.id)}
          disabled={remove.isPending}
        >
          Delete
        </Button>
      ),
    }),
  ]);

  return (
    <Card className="mb-4">
      <Card.Header as="h2" className="h5">
        Senders
      </Card.Header>
      <Card.Body>
        {senders.isPending ? (
          <PageSpinner label="Loading senders" />
        ) : senders.isError ? (
          <Alert variant="danger">Could not load senders.</Alert>
        ) : senders.data.length === 0 ? (
          <EmptyState>No senders yet.</EmptyState>
        ) : (
          <DataTable
            label="Senders"
            columns={columns}
            data={senders.data}
            cellClassName={{ actions: 'text-end' }}
            hover
            small={false}
          />
        )}
        <hr />
        <AddSenderForm />
      </Card.Body>
      <ConfirmDeleteDialog
        show={deleting !== null}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting !== null && remove.mutate({ id: deleting })}
      />
    </Card>
  );
}
