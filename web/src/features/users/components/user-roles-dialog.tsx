import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { ManagedUser, Role } from '@/api/gen/model';
import { SearchableMultiSelect } from '@/components/form/searchable-multi-select';
import { fullName, useLocalOptions } from '../utils';

export interface UserRolesDialogProps {
  user: ManagedUser;
  roles: Role[];
  busy: boolean;
  error?: string;
  onSave: (roleIds: number[]) => void;
  onCancel: () => void;
}

/** The roles a user holds in this client: a searchable multi-select. Rendered only while open. */
export function UserRolesDialog({ user, roles, busy, error, onSave, onCancel }: UserRolesDialogProps) {
  const items = roles.map((role) => ({ id: role.id, label: role.name }));
  const [chosen, setChosen] = useState(items.filter((item) => user.roleIds.includes(item.id)));
  const { options, onSearch } = useLocalOptions(items);
  const who = fullName(user) || user.email;

  return (
    <Modal show onHide={onCancel} centered aria-labelledby="user-roles-title">
      <Modal.Header closeButton>
        <Modal.Title id="user-roles-title">Roles of {who}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {roles.length === 0 ? (
          <p className="mb-0">No roles exist yet: create one in Manage Roles.</p>
        ) : (
          <SearchableMultiSelect label="Roles" value={chosen} onChange={setChosen} options={options} onSearch={onSearch} />
        )}
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
        <Button onClick={() => onSave(chosen.map((item) => item.id))} disabled={busy || roles.length === 0}>
          Save
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
