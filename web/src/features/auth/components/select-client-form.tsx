import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { useListMyClients } from '@/api/gen';
import { useSwitchClient } from '../hooks/use-switch-client';
import { ERROR_SELECTING_CLIENT } from '../messages';

export { ERROR_SELECTING_CLIENT };

/**
 * Chooses the client to work in after a universal login (or when switching client). Not shown in client-auth mode,
 * where the login itself acts for the client (see useCompleteLogin).
 */
export function SelectClientForm() {
  const clients = useListMyClients();
  const [clientId, setClientId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const clientLogin = useSwitchClient(() => setProblem(ERROR_SELECTING_CLIENT));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!clientId) return;
    setProblem(null);
    const id = Number(clientId);
    clientLogin.switchTo(id, clients.data?.find((c) => c.id === id)?.short);
  };

  const busy = clientLogin.isPending;

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
      {clients.data && clients.data.length > 1 && (
        <div className="small text-center mb-2">
          <Link to="/portfolio">See all your clients (Portfolio)</Link>
        </div>
      )}
      <div className="small text-center">
        <Link to="/auth/logout">Logout of Universal User account</Link>
      </div>
    </Form>
  );
}
