/** Google Identity Services, loaded on demand (never a static script tag): only when Google sign-in is configured. */
export const GOOGLE_IDENTITY_SCRIPT = 'https://accounts.google.com/gsi/client';

export interface GoogleCredentialResponse {
  credential?: string;
}

export interface GoogleAccountsId {
  initialize(config: { client_id: string; callback: (response: GoogleCredentialResponse) => void }): void;
  renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleAccountsId } };
  }
}

let loading: Promise<GoogleAccountsId> | null = null;

/**
 * Loads Google's script once and resolves with `google.accounts.id`. A failed load (blocked, offline, refused by
 * the content security policy) rejects and removes the tag, so a later call tries again.
 */
export function loadGoogleIdentity(src: string = GOOGLE_IDENTITY_SCRIPT): Promise<GoogleAccountsId> {
  const ready = window.google?.accounts?.id;
  if (ready) return Promise.resolve(ready);
  if (loading) return loading;
  loading = new Promise<GoogleAccountsId>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.defer = true;
    const fail = (reason: string) => {
      script.remove();
      loading = null;
      reject(new Error(reason));
    };
    script.onload = () => {
      const id = window.google?.accounts?.id;
      if (!id) return fail('Google sign-in did not start');
      // From now on window.google answers directly.
      loading = null;
      resolve(id);
    };
    script.onerror = () => fail('Google sign-in could not be loaded');
    document.head.appendChild(script);
  });
  return loading;
}
