import Button from 'react-bootstrap/Button';
import { ContributionsPage } from '@/features/revenue/components/contributions-page';

export function Component() {
  // PLACEHOLDER until the contributions import dialog (features/revenue/components/contributions-import-dialog.tsx)
  // is merged: the button is shown, disabled, where the dialog will open.
  const importButton = (
    <Button size="sm" variant="primary" disabled title="The import dialog is not available yet">
      Import
    </Button>
  );
  return <ContributionsPage importButton={importButton} />;
}
