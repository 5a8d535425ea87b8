import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useSearchParams } from 'react-router';
import { useFinishRegistration } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { useAuthClient } from '../hooks/use-auth-client';
import { EMAIL_VERIFIED } from '../messages';

/** The server's words for a bad link, also used when the address lacks the token or the e-mail. */
const INVALID_LINK = 'This link is invalid or has expired';

/** The link of the verification e-mail (`token`, `email`, `client`): marks the address verified. */
export function FinishRegistration() {
  const [params] = useSearchParams();
  const { client, withClient } = useAuthClient();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const incomplete = !token || !email;
  const [answer, setAnswer] = useState<{ ok: boolean; message: string } | null>(null);
  const outcome = incomplete ? { ok: false, message: INVALID_LINK } : answer;
  const started = useRef(false);

  const finish = useFinishRegistration({
    mutation: {
      // The server's refusal is shown on the page, not in the snackbar.
      meta: { silent: true },
      onSuccess: () => setAnswer({ ok: true, message: EMAIL_VERIFIED }),
      onError: (error) => setAnswer({ ok: false, message: error.message }),
    },
  });
  const finishRegistration = finish.mutate;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (incomplete) return;
    finishRegistration({ data: { email, token, client } });
  }, [finishRegistration, incomplete, email, token, client]);

  return (
    <>
      {outcome === null ? (
        <PageSpinner label="Verifying your email" />
      ) : outcome.ok ? (
        <p role="status">{outcome.message}</p>
      ) : (
        <Alert variant="danger">{outcome.message}</Alert>
      )}
      <Link to={withClient('/auth/login')}>Back to login</Link>
    </>
  );
}
