import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { getGetMeQueryOptions, useClientLogin, useListMyClients } from '@/api/gen';
import { decodeToken, setClientSession, takeRedirect } from '@/lib/session';

export const ERROR_SELECTING_CLIENT = 'Error selecting client';

/** Chooses the client to work in after a universal login. */
export function SelectClientForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clients = useListMyClients();
  const [clientId, setClientId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [loadingUser, setLoadingUser] = useState(false);

  const clientLogin = useClientLogin({
    mutation: {
      onSuccess: async (response, { data }) => {
        const token = response.accessToken;
        if (!token) {
          setProblem(ERROR_SELECTING_CLIENT);
          return;
        }
        const payload = decodeToken(token);
        const option = clients.data?.find((c) => c.id === data.clientId);
        const short = payload?.clientShort ?? option?.short;
        const id = payload?.clientId ?? data.clientId;
        if (!short) {
          setProblem(ERROR_SELECTING_CLIENT);
          return;
        }
        setClientSession(token, id, short);
        // Data of another client must not survive the switch.
        queryClient.removeQueries({ predicate: (q) => !isSessionQuery(q.queryKey) });
        setLoadingUser(true);
        try {
          // Permissions must load, or the session is unusable: log out.
          await queryClient.fetchQuery({ ...getGetMeQueryOptions(), staleTime: 0 });
        } catch {
          void navigate('/auth/logout', { replace: true });
          return;
        }
        void navigate(takeRedirect() ?? '/dashboard', { replace: true });
      },
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!clientId) return;
    setProblem(null);
    clientLogin.mutate({ data: { clientId: Number(clientId) } });
  };

  const busy = clientLogin.isPending || loadingUser;

  return (
    <Form onSubmit={onSubmit}>
      {problem && <Alert variant="danger">{problem}</Alert>}
      {clients.isError && <Alert variant="danger">Could not load your clients.</Alert>}
      <Form.Group className="mb-3" controlId="select-client">
        <Form.Label>Client</Form.Label>
        <Form.Select
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          disabled={clients.isPending || busy}
        >
          <option value="">{clients.isPending ? 'Loading clients…' : 'Choose a client'}</option>
          {clients.data?.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.label}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Button type="submit" className="w-100 mb-3" disabled={!clientId || busy}>
        Login
      </Button>
      <div className="small text-center">
        <Link to="/auth/logout">Logout of Universal User account</Link>
      </div>
    </Form>
  );
}

/** Queries that belong to the login itself, not to a client. */
function isSessionQuery(key: readonly unknown[]): boolean {
  const first = key[0];
  return typeof first === 'string' && (first.startsWith('/auth-api/auth') || first === '/auth-api/session/clients');
}
