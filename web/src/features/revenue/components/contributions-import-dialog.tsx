import { getListContributionImportFieldsQueryKey, importContributions, listContributionImportFields } from '@/api/gen';
import { ImportDialog, type ImportPlatform } from '@/components/import-dialog';

const PLATFORMS: ImportPlatform[] = [
  {
    id: 'actblue',
    label: 'ActBlue',
    hint: 'A contributions or refunds export (.csv). Columns are found by name; Lineitem ID, Date and Amount are needed.',
    accept: '.csv',
  },
  {
    id: 'winred',
    label: 'WinRed',
    hint: 'A WinRed export (.csv). Refunds and chargebacks are its negative rows.',
    accept: '.csv',
  },
  {
    id: 'mapped',
    label: 'Other',
    hint: 'Any other platform’s .csv or .txt file: map its columns below.',
    mapped: true,
  },
];

const FIELDS = {
  queryKey: getListContributionImportFieldsQueryKey(),
  load: (signal: AbortSignal) => listContributionImportFields({ signal }),
};

/**
 * Imports contributions: the platform (ActBlue, WinRed, or another platform's file with a column mapping) and the
 * file; the import runs as a job shown in the job banner. Opened from the Contributions page.
 */
export function ContributionsImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  return (
    <ImportDialog
      show={show}
      onClose={onClose}
      title="Import Contributions"
      idPrefix="contributions-import"
      platforms={PLATFORMS}
      fields={FIELDS}
      requiredFields={['line_item_id', 'date', 'amount']}
      upload={importContributions}
    />
  );
}
