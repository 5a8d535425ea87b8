import { useEffect, useRef, useState } from 'react';
import { loadGoogleIdentity } from '../lib/google-identity';

export interface GoogleButtonProps {
  clientId: string;
  /** Called with Google's ID token, or with undefined when Google handed back no credential. */
  onCredential: (credential: string | undefined) => void;
}

/**
 * Google's sign-in button. Google's script is loaded only now; if it cannot load, the button is left out and the
 * rest of the page works as before.
 */
export function GoogleButton({ clientId, onCredential }: GoogleButtonProps) {
  const container = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    callback.current = onCredential;
  }, [onCredential]);

  useEffect(() => {
    let active = true;
    loadGoogleIdentity()
      .then((id) => {
        if (!active || !container.current) return;
        id.initialize({ client_id: clientId, callback: (response) => callback.current(response.credential) });
        container.current.replaceChildren();
        id.renderButton(container.current, { type: 'standard', theme: 'outline', size: 'large', text: 'signin_with' });
      })
      .catch(() => {
        if (active) setFailed(true);
      });
    return () => {
      active = false;
    };
  }, [clientId]);

  if (failed) return null;
  return <div ref={container} className="d-flex justify-content-center mb-3" data-testid="google-sign-in" />;
}
