import Spinner from 'react-bootstrap/Spinner';

export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="d-flex justify-content-center p-5">
      <Spinner animation="border" role="status">
        <span className="visually-hidden">{label}</span>
      </Spinner>
    </div>
  );
}
