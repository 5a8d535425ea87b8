import Container from 'react-bootstrap/Container';
import { EmptyState } from '@/components/empty-state';

/** The public form viewer (no sign-in). */
export function Component() {
  return (
    <Container className="py-5">
      <EmptyState>The form viewer is not available yet.</EmptyState>
    </Container>
  );
}
