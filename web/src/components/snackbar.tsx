import Button from 'react-bootstrap/Button';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { dismissSnack, useSnacks } from '@/lib/notifications';

/** Shows the notifications of src/lib/notifications for their own duration (3 s or 5 s), each with Close. */
export function Snackbar() {
  const snacks = useSnacks();
  return (
    <ToastContainer position="bottom-center" className="p-3 snackbar-container" containerPosition="fixed">
      {snacks.map((snack) => (
        <Toast
          key={snack.id}
          bg={snack.variant}
          autohide
          delay={snack.delay}
          onClose={() => dismissSnack(snack.id)}
          className={snack.variant === 'info' ? undefined : 'text-white'}
        >
          <Toast.Body className="d-flex align-items-center gap-3">
            <span className="flex-grow-1">{snack.message}</span>
            <Button
              size="sm"
              variant={snack.variant === 'info' ? 'outline-secondary' : 'outline-light'}
              onClick={() => dismissSnack(snack.id)}
            >
              Close
            </Button>
          </Toast.Body>
        </Toast>
      ))}
    </ToastContainer>
  );
}
