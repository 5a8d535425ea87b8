import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { PermissionOption, Role, RoleInput } from '@/api/gen/model';

export interface RoleDialogProps {
  /** The role being edited; null creates one. */
  role: Role | null;
  permissionNames: PermissionOption[];
  busy: boolean;
  /** The server's refusal (e.g. "A role with this name already exists"). */
  error?: string;
  onSave: (input: RoleInput) => void;
  onCancel: () => void;
}

/** A role's name and permissions, as checkboxes. Rendered only while open, so each opening starts afresh. */
export function RoleDialog({ role, permissionNames, busy, error, onSave, onCancel }: RoleDialogProps) {
  const [name, setName] = useState(role?.name ?? '');
  const [permissions, setPermissions] = useState<string[]>(role?.permissions ?? []);
  const valid = name.trim() !== '';
  const title = role ? 'Edit role' : 'Create Role';

  const toggle = (id: string, on: boolean) =>
    setPermissions((current) => (on ? [...current, id] : current.filter((p) => p !== id)));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    // Kept in the order the server lists them.
    const ordered = permissionNames.map((p) => p.id).filter((id) => permissions.includes(id));
    onSave({ name: name.trim(), permissions: ordered });
  };

  return (
    <Modal show onHide={onCancel} centered aria-labelledby="role-dialog-title">
      <Form onSubmit={onSubmit} noValidate aria-label={title}>
        <Modal.Header closeButton>
          <Modal.Title id="role-dialog-title">{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId="role-name">
            <Form.Label>Name</Form.Label>
            <Form.Control value={name} maxLength={100} onChange={(e) => setName(e.target.value)} autoFocus />
          </Form.Group>
          <fieldset>
            <legend className="form-label fs-6">Permissions</legend>
            {permissionNames.map((p) => (
              <Form.Check
                key={p.id}
                type="checkbox"
                id={`role-permission-${p.id.replace(/\s+/g, '-')}`}
                label={p.label}
                checked={permissions.includes(p.id)}
                onChange={(e) => toggle(p.id, e.target.checked)}
              />
            ))}
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
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
