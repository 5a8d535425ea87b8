import { Link } from 'react-router';

export function Component() {
  return (
    <>
      <p>Registration is not available yet.</p>
      <Link to="/auth/login">Back to login</Link>
    </>
  );
}
