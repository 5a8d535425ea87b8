import { Link } from 'react-router';

export function Component() {
  return (
    <>
      <p>Email verified, an administrator now has to enable this account</p>
      <Link to="/auth/login">Back to login</Link>
    </>
  );
}
