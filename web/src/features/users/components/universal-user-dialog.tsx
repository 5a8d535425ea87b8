import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { ClientChoice, UniversalUser } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { SearchableMultiSelect } from '@/components/form/searchable-multi-select';
import { VIEW_USER } from '@/lib/permissions';
import { INVALID_EMAIL_MESSAGE, isValidEmail } from '@/lib/validation';
import { namesFor, useLocalOptions } from '../utils';

/** What the dialog saves: a new user (with e-mail) or an edit (with enabled). */
export interface UniversalUserValues {
  email: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  allClients: boolean;
  clientIds: number[];
  universalPermissions: string[];
}

export interface UniversalUserDialogProps {
  /** The user being edited; null creates one. */
  user: UniversalUser | null;
  /** Whether the user being edited is the signed-in user (who cannot disable themselves or drop "view user"). */
  self: boolean;
  clients: ClientChoice[];
  busy: boolean;
  error?: string;
  onSave: (values: UniversalUserValues) => void;
  onCancel: () => void;
}

/** Create or edit a universal user: names, access to all or some clients, and the "view user" permission. */
export function UniversalUserDialog({ user, self, clients, busy, error, onSave, onCancel }: UniversalUserDialogProps) {
  const items = clients.map((c) => ({ id: c.id, label: c.label }));
  const [email, setEmail] = useState(user?.email ?? '');
  const [firstName, setFirstName] = useState(user?.firstName ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [enabled, setEnabled] = useState(user?.enabled ?? true);
  const [allClients, setAllClients] = useState(user?.allClients ?? false);
  const [chosen, setChosen] = useState(() => {
    const ids = user?.clientIds ?? [];
    const labels = namesFor(ids, items);
    return ids.map((id, i) => ({ id, label: labels[i] }));
  });
  const [viewUser, setViewUser] = useState(user?.universalPermissions.includes(VIEW_USER) ?? false);
  const { options, onSearch } = useLocalOptions(items);

  const creating = user === null;
  const emailProblem = creating && email.trim() !== '' && !isValidEmail(email) ? INVALID_EMAIL_MESSAGE : null;
  const valid = (!creating || isValidEmail(email)) && firstName.trim() !== '' && lastName.trim() !== '';
  const title = creating ? 'Create Universal User' : `Edit ${user.email}`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    onSave({
      email: email.trim().toLowerCase(),
      firstName: firstName.trim(),
      lastName: lastName.trim(),
      enabled,
      allClients,
      clientIds: chosen.map((c) => Number(c.id)),
      universalPermissions: viewUser ? [VIEW_USER] : [],
    });
  };

  return (
    <Modal show onHide={onCancel} centered size="lg" aria-labelledby="universal-user-title">
      <Form onSubmit={onSubmit} noValidate aria-label={title}>
        <Modal.Header closeButton>
          <Modal.Title id="universal-user-title">{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {creating && (
            <Field
              id="universal-user-email"
              label="Email"
              type="email"
              value={email}
              maxLength={320}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={emailProblem !== null}
              autoFocus
              invalid={emailProblem !== null}
              error={emailProblem}
              hint={<Form.Text>An invitation to set a password is e-mailed to this address.</Form.Text>}
            />
          )}
          <div className="row g-3 mb-3">
            <Form.Group className="col-md-6" controlId="universal-user-first-name">
              <Form.Label>First name</Form.Label>
              <Form.Control value={firstName} maxLength={100} onChange={(e) => setFirstName(e.target.value)} />
            </Form.Group>
            <Form.Group className="col-md-6" controlId="universal-user-last-name">
              <Form.Label>Last name</Form.Label>
              <Form.Control value={lastName} maxLength={100} onChange={(e) => setLastName(e.target.value)} />
            </Form.Group>
          </div>
          {!creating && (
            <Form.Check
              type="switch"
              role="switch"
              className="mb-3"
              id="universal-user-enabled"
              label="Enabled"
              checked={enabled}
              disabled={self}
              onChange={(e) => setEnabled(e.target.checked)}
            />
          )}
          <Form.Check
            type="switch"
            role="switch"
            className="mb-3"
            id="universal-user-all-clients"
            label="All clients (every permission in every client)"
            checked={allClients}
            onChange={(e) => setAllClients(e.target.checked)}
          />
          {!allClients && (
            <SearchableMultiSelect label="Clients" value={chosen} onChange={setChosen} options={options} onSearch={onSearch} />
          )}
          <fieldset>
            <legend className="form-label fs-6">Universal permissions</legend>
            <Form.Check
              type="checkbox"
              id="universal-user-view-user"
              label="view user (Manage Universal Users)"
              checked={viewUser}
              disabled={self}
              onChange={(e) => setViewUser(e.target.checked)}
            />
          </fieldset>
          {error && (
            <Alert variant="danger" className="mt-3 mb-0">
              {error}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid || busy}>
            {creating ? 'Create' : 'Save'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
