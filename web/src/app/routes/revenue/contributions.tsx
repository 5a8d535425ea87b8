import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ContributionsImportDialog } from '@/features/revenue/components/contributions-import-dialog';
import { ContributionsPage } from '@/features/revenue/components/contributions-page';

export function Component() {
  const [importing, setImporting] = useState(false);
  const importButton = (
    <>
      <Button size="sm" variant="primary" onClick={() => setImporting(true)}>
        Import
      </Button>
      <ContributionsImportDialog show={importing} onClose={() => setImporting(false)} />
    </>
  );
  return <ContributionsPage importButton={importButton} />;
}
