import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

/** Cancel and Import, the latter a submit button with a spinner while the import call runs. */
export function ImportDialogFooter({
  onCancel,
  canSubmit,
  pending,
}: {
  onCancel: () => void;
  canSubmit: boolean;
  pending: boolean;
}) {
  return (
    <Modal.Footer>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={!canSubmit}>
        {pending ? <Spinner size="sm" className="me-1" aria-hidden /> : null}
        Import
      </Button>
    </Modal.Footer>
  );
}
