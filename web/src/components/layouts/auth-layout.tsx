import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';

/** "Compass Login", with " - {client name}" when a client name is known. */
export const authTitle = (clientName?: string | null): string =>
  clientName ? `Compass Login - ${clientName}` : 'Compass Login';

export interface AuthLayoutProps {
  clientName?: string | null;
  providerName?: string;
  /** Shows a spinner (a login call is running). */
  busy?: boolean;
  children: ReactNode;
}

/** The shell of the /auth pages. */
export function AuthLayout({ clientName, providerName, busy = false, children }: AuthLayoutProps) {
  return (
    <div className="auth-shell d-flex flex-column min-vh-100">
      <main className="flex-grow-1 d-flex align-items-start justify-content-center pt-5">
        <Card className="auth-card shadow-sm">
          <Card.Body className="p-4">
            <h1 className="h4 mb-4 d-flex align-items-center gap-2">
              {authTitle(clientName)}
              {busy && (
                <Spinner animation="border" size="sm" role="status">
                  <span className="visually-hidden">Working</span>
                </Spinner>
              )}
            </h1>
            {children}
          </Card.Body>
        </Card>
      </main>
      {providerName && <footer className="text-center small text-body-secondary py-3">{providerName}</footer>}
    </div>
  );
}
