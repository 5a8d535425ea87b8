import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** The NGP saved-list import opened from the Contacts menu (the import itself is not built yet). */
export function NgpImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="ngp-import-title">
      <Modal.Header closeButton>
        <Modal.Title id="ngp-import-title">NGP Saved List Import</Modal.Title>
      </Modal.Header>
      <Modal.Body>NGP Saved List Import is not available yet.</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
