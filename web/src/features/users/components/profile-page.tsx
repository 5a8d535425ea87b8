import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { useGetMe } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { AuthenticatorSetup } from './authenticator-setup';
import { ChangePasswordForm } from './change-password-form';
import { ProfileForm } from './profile-form';

/** The signed-in user's profile, password and authenticator app. */
export function ProfilePage() {
  const me = useGetMe();
  return (
    <>
      <h1 className="h3 mb-3">Profile</h1>
      {me.isPending ? (
        <PageSpinner label="Loading your profile" />
      ) : me.isError ? (
        <Alert variant="danger">Could not load your profile.</Alert>
      ) : (
        <>
          <Card className="mb-4">
            <Card.Header as="h2" className="h5">
              Details
            </Card.Header>
            <Card.Body>
              {/* A new two-factor state (an app enrolled) starts the form afresh from the server's answer. */}
              <ProfileForm key={`${me.data.twoFactorMethod}-${me.data.authenticatorEnrolled}`} me={me.data} />
            </Card.Body>
          </Card>
          <Card className="mb-4">
            <Card.Header as="h2" className="h5">
              Password
            </Card.Header>
            <Card.Body>
              <ChangePasswordForm />
            </Card.Body>
          </Card>
          <Card className="mb-4">
            <Card.Header as="h2" className="h5">
              Authenticator app
            </Card.Header>
            <Card.Body>
              <AuthenticatorSetup me={me.data} />
            </Card.Body>
          </Card>
        </>
      )}
    </>
  );
}
