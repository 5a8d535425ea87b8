import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';

/** A figure that opens the donors behind it. */
export function CellButton({ label, onOpen, children }: { label: string; onOpen: () => void; children: ReactNode }) {
  return (
    <Button variant="link" size="sm" className="p-0 text-reset" aria-label={label} onClick={onOpen}>
      {children}
    </Button>
  );
}
