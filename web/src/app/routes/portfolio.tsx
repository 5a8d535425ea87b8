import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, redirect } from 'react-router';
import type { PortfolioClient } from '@/api/gen/model';
import { useSwitchClient } from '@/features/auth/hooks/use-switch-client';
import { ERROR_SELECTING_CLIENT } from '@/features/auth/messages';
import { PortfolioPage } from '@/features/portfolio/components/portfolio-page';
import { getToken, tokenUserKind } from '@/lib/session';
import { useDocumentTitle } from '../use-document-title';

/**
 * The portfolio needs a signed-in universal user, before or after choosing a client; a client user's session
 * acts for its one client, so they go to its dashboard.
 */
export function loader() {
  const token = getToken();
  if (!token) throw redirect('/auth/login');
  if (tokenUserKind(token) === 'client') throw redirect('/dashboard');
  return null;
}

/** Agency staff's first page when they hold several clients: every client side by side; a click opens one. */
export function Component() {
  useDocumentTitle();
  const [problem, setProblem] = useState<string | null>(null);
  const switcher = useSwitchClient(() => setProblem(ERROR_SELECTING_CLIENT));
  const open = (client: PortfolioClient) => {
    setProblem(null);
    switcher.switchTo(client.id, client.short);
  };
  return (
    <div className="min-vh-100">
      <Navbar className="border-bottom px-3" expand="sm">
        <Navbar.Brand as={Link} to="/portfolio">
          Compass
        </Navbar.Brand>
        <Nav className="ms-auto">
          <Nav.Link as={Link} to="/auth/select-client">
            Choose a client
          </Nav.Link>
          <Nav.Link as={Link} to="/auth/logout">
            Logout
          </Nav.Link>
        </Nav>
      </Navbar>
      <Container fluid as="main" className="py-3">
        <h1 className="h3">Portfolio</h1>
        {problem && <Alert variant="danger">{problem}</Alert>}
        <PortfolioPage
          onOpen={open}
          openingId={switcher.isPending ? switcher.variables?.data.clientId : undefined}
        />
      </Container>
    </div>
  );
}
