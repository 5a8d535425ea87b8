import { useEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useBlocker } from 'react-router';

/**
 * Warns before edits are lost: the app's own navigation (a link, Back) waits for "Leave" in a dialog, and closing
 * or reloading the tab gets the browser's own prompt. Render `dialog`; call `allowNext()` right before navigating
 * away on purpose (after a save), because the saved state only shows a render later.
 */
export function useUnsavedChanges(dirty: boolean) {
  const allowed = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const stay = () => blocker.reset?.();
  const dialog = (
    <Modal show={blocker.state === 'blocked'} onHide={stay} centered aria-labelledby="unsaved-changes-title">
      <Modal.Header closeButton>
        <Modal.Title id="unsaved-changes-title">Leave without saving?</Modal.Title>
      </Modal.Header>
      <Modal.Body>Your changes are not saved yet. If you leave, they are lost.</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={stay}>
          Stay
        </Button>
        <Button variant="danger" onClick={() => blocker.proceed?.()}>
          Leave
        </Button>
      </Modal.Footer>
    </Modal>
  );
  return {
    dialog,
    allowNext: () => {
      allowed.current = true;
    },
  };
}
