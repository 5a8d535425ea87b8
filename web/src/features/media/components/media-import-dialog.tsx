import { getListMediaImportFieldsQueryKey, importMedia, listMediaImportFields } from '@/api/gen';
import { ImportDialog, type ImportPlatform } from '@/components/import-dialog';

const PLATFORMS: ImportPlatform[] = [
  {
    id: 'meta',
    label: 'Meta Ads Manager',
    hint: 'An ad-level export broken down by day (.csv, .xls or .xlsx). Columns are found by name: Day, Campaign name, Ad set name, Ad name, Amount spent; Ad ID, Impressions, Link clicks, Results and URL parameters when present.',
    accept: '.csv,.xls,.xlsx',
  },
  {
    id: 'google',
    label: 'Google Ads',
    hint: 'An ad report segmented by day (.csv). Columns are found by name: Day, Campaign, Ad group, Ad ID, Cost, Impr., Clicks, Conversions and Final URL.',
    accept: '.csv,.xls,.xlsx',
  },
  { id: 'other', label: 'Other', hint: 'Any other platform’s .csv or .txt file: map its columns below.', mapped: true },
];

const FIELDS = {
  queryKey: getListMediaImportFieldsQueryKey(),
  load: (signal: AbortSignal) => listMediaImportFields({ signal }),
};

/** Imports ad days from a Meta or Google export, or a mapped file; the import runs as a job. */
export function MediaImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  return (
    <ImportDialog
      show={show}
      onClose={onClose}
      title="Import Ad Spend"
      idPrefix="media-import"
      platforms={PLATFORMS}
      fields={FIELDS}
      requiredFields={['day', 'campaign', 'ad', 'spend']}
      upload={importMedia}
    />
  );
}
