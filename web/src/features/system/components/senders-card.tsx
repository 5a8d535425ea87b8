import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListSenderNamesQueryKey,
  getListSendersQueryKey,
  useCreateSender,
  useDeleteSender,
  useListSenders,
} from '@/api/gen';
import type { SenderInput } from '@/api/gen/model';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';
import { INVALID_EMAIL_MESSAGE, isValidEmail } from '@/lib/validation';

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
        <Form.Group className="col-md-3" controlId="sender-from">
          <Form.Label>From address</Form.Label>
          <Form.Control
            type="email"
            value={fromAddress}
            maxLength={320}
            onChange={(e) => setFromAddress(e.target.value)}
            isInvalid={fromInvalid}
            aria-describedby={fromInvalid ? 'sender-from-error' : undefined}
            required
          />
          <Form.Control.Feedback type="invalid" id="sender-from-error">
            {INVALID_EMAIL_MESSAGE}
          </Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="col-md-3" controlId="sender-reply-to">
          <Form.Label>Reply-to (optional)</Form.Label>
          <Form.Control
            type="email"
            value={replyTo}
            maxLength={320}
            onChange={(e) => setReplyTo(e.target.value)}
            isInvalid={!replyValid}
            aria-describedby={replyValid ? undefined : 'sender-reply-to-error'}
          />
          <Form.Control.Feedback type="invalid" id="sender-reply-to-error">
            {INVALID_EMAIL_MESSAGE}
          </Form.Control.Feedback>
        </Form.Group>
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
export function SendersCard() {
  const queryClient = useQueryClient();
  const senders = useListSenders({ query: { meta: { errorMessage: 'Could not load senders' } } });
  const [deleting, setDeleting] = useState<number | null>(null);
  const remove = useDeleteSender({
    mutation: {
      meta: { errorMessage: 'Could not delete the sender' },
      onSuccess: async () => {
        setDeleting(null);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: getListSendersQueryKey() }),
          queryClient.invalidateQueries({ queryKey: getListSenderNamesQueryKey() }),
        ]);
      },
      onError: () => setDeleting(null),
    },
  });

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
          <Table striped hover responsive aria-label="Senders">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">From address</th>
                <th scope="col">Reply-to</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {senders.data.map((sender) => (
                <tr key={sender.id}>
                  <td>{sender.name}</td>
                  <td>{sender.fromAddress}</td>
                  <td>{sender.replyTo ?? ''}</td>
                  <td className="text-end">
                    <Button
                      size="sm"
                      variant="outline-danger"
                      aria-label={`Delete ${sender.name}`}
                      onClick={() => setDeleting(sender.id)}
                      disabled={remove.isPending}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
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
