import Alert from 'react-bootstrap/Alert';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a route fails to load or render. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <div className="p-4">
      <Alert variant="danger">
        <Alert.Heading as="h1" className="h4">
          Something went wrong
        </Alert.Heading>
        <p>{message}</p>
        <Link to="/dashboard" reloadDocument>
          Back to the dashboard
        </Link>
      </Alert>
    </div>
  );
}
