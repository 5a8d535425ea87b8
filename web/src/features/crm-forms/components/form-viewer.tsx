import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { recordCrmFormView, submitCrmForm, useViewCrmForm } from '@/api/gen';
import type { FormView } from '@/api/gen/model';
import { ApiError } from '@/lib/api-client';
import { StyledFormPage } from './styled-form';

/** The submit handler is bound this long after the body renders (bots that post at once find no handler). */
export const SUBMIT_BIND_DELAY_MS = 1000;

export const NOT_AVAILABLE = 'This form is not available.';
export const THANK_YOU = 'Thank you for signing up.';

const defaultRedirect = (url: string) => window.location.assign(url);

const honeypotStyle = {
  position: 'absolute',
  left: '-10000px',
  top: 'auto',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
} as const;

function NotAvailable() {
  return (
    <main className="container py-5">
      <h1 className="h4 text-center">{NOT_AVAILABLE}</h1>
    </main>
  );
}

function FormBody({
  form,
  client,
  onRedirect,
}: {
  form: FormView;
  client: string;
  onRedirect: (url: string) => void;
}) {
  const body = useRef<HTMLDivElement>(null);
  const honeypot = useRef<HTMLInputElement>(null);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // One view per page load (the ref survives StrictMode's repeated effects).
  const viewRecorded = useRef(false);
  useEffect(() => {
    if (viewRecorded.current) return;
    viewRecorded.current = true;
    recordCrmFormView(form.id, { headers: { 'client-short': client } }).catch(() => {
      // A lost view is not the visitor's problem.
    });
  }, [form.id, client]);

  useEffect(() => {
    const container = body.current;
    if (!container || done) return;
    let sending = false;
    const onSubmit = (event: Event) => {
      const target = event.target;
      if (!(target instanceof HTMLFormElement) || !container.contains(target)) return;
      event.preventDefault();
      if (sending) return;
      const input =
        target.querySelector<HTMLInputElement>('input[type=email], input[name=email]') ??
        container.querySelector<HTMLInputElement>('input[type=email], input[name=email]');
      const email = input?.value.trim() ?? '';
      const website = honeypot.current?.value ?? '';
      sending = true;
      setError(null);
      submitCrmForm(form.id, { email, website }, { headers: { 'client-short': client } })
        .then((result) => {
          const redirect = result?.redirect_url;
          if (redirect) onRedirect(redirect);
          else setDone(true);
        })
        .catch((e: unknown) => {
          setError(e instanceof ApiError ? e.message : 'Something went wrong. Please try again.');
        })
        .finally(() => {
          sending = false;
        });
    };
    // Until the handler is bound a submit goes nowhere.
    const block = (event: Event) => event.preventDefault();
    container.addEventListener('submit', block);
    const timer = setTimeout(() => {
      container.removeEventListener('submit', block);
      container.addEventListener('submit', onSubmit);
    }, SUBMIT_BIND_DELAY_MS);
    return () => {
      clearTimeout(timer);
      container.removeEventListener('submit', block);
      container.removeEventListener('submit', onSubmit);
    };
  }, [form.id, client, done, onRedirect]);

  if (done) {
    return (
      <StyledFormPage name={form.name} style={form.style}>
        <p className="lead">{THANK_YOU}</p>
      </StyledFormPage>
    );
  }
  return (
    // The body is already sanitised by the server (no scripts, handlers or javascript: URLs).
    <StyledFormPage name={form.name} style={form.style} bodyHtml={form.bodyHtml} bodyRef={body}>
      <div aria-hidden="true" style={honeypotStyle}>
        <label htmlFor="form-viewer-website">Website</label>
        <input
          ref={honeypot}
          id="form-viewer-website"
          type="text"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      {error && (
        <Alert variant="danger" className="mt-3" role="alert">
          {error}
        </Alert>
      )}
    </StyledFormPage>
  );
}

export interface FormViewerProps {
  id: number | null;
  client: string | null;
  /** Leaves the page for the form's redirect address (tests replace it). */
  onRedirect?: (url: string) => void;
}

/** The public form viewer: no sign-in, no app shell; loads the form for the client named in the address. */
export function FormViewer({ id, client, onRedirect = defaultRedirect }: FormViewerProps) {
  const valid = id !== null && client !== null;
  const form = useViewCrmForm(id ?? 0, {
    query: { enabled: valid, retry: false, staleTime: Infinity, meta: { silent: true } },
    request: { headers: { 'client-short': client ?? '' } },
  });
  useEffect(() => {
    if (form.data?.name) document.title = form.data.name;
  }, [form.data?.name]);

  if (!valid || form.isError) return <NotAvailable />;
  if (form.isPending) {
    return (
      <main className="container py-5 text-center">
        <Spinner animation="border" role="status">
          <span className="visually-hidden">Loading form</span>
        </Spinner>
      </main>
    );
  }
  return <FormBody form={form.data} client={client} onRedirect={onRedirect} />;
}
