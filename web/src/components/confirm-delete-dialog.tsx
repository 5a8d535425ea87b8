import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export interface ConfirmDeleteDialogProps {
  show: boolean;
  /** "Yes, delete" */
  onConfirm: () => void;
  /** "No, keep", the close button or Escape */
  onCancel: () => void;
  /** Disables the buttons while the delete runs. */
  busy?: boolean;
}

/** The one delete confirmation of the app: "Confirm delete" / "Delete this item?". */
export function ConfirmDeleteDialog({ show, onConfirm, onCancel, busy = false }: ConfirmDeleteDialogProps) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="confirm-delete-title">
      <Modal.Header closeButton>
        <Modal.Title id="confirm-delete-title">Confirm delete</Modal.Title>
      </Modal.Header>
      <Modal.Body>Delete this item?</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          No, keep
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          Yes, delete
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
