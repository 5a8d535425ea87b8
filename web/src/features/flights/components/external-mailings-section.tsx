import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useListExternalMailings } from '@/api/gen';
import type { ExternalMailingRow } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatIsoDate, type DateRange } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';
import { downloadFile } from '@/lib/download';
import { ExternalMailingsImportDialog } from './external-mailings-import-dialog';

const PLATFORM_LABEL: Record<string, string> = { esp: 'Other platform', lemlist: 'lemlist' };
const rate = (value: number | null | undefined) => (value == null ? '—' : formatPercent(value));
const col = columnsFor<ExternalMailingRow>();
const columns = col.columns([
  col.accessor('sentOn', { header: 'Sent on', cell: (i) => formatIsoDate(i.getValue()) }),
  col.accessor('name', { header: 'Name' }),
  col.accessor('source', { header: 'Platform', cell: (i) => PLATFORM_LABEL[i.getValue()] ?? i.getValue() }),
  col.accessor('recipients', { header: 'Recipients', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('delivered', { header: 'Delivered', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('bounces', { header: 'Bounces', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('opens', { header: 'Opens', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('openRate', { header: 'Open rate', cell: (i) => rate(i.getValue()) }),
  col.accessor('clicks', { header: 'Clicks', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('clickRate', { header: 'Click rate', cell: (i) => rate(i.getValue()) }),
  col.accessor('unsubscribes', { header: 'Unsubscribes', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('gifts', { header: 'Gifts', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('revenue', { header: 'Revenue', cell: (i) => formatMoney(i.getValue()) }),
  col.accessor('rpm', { header: 'RPM', cell: (i) => formatMoney(i.getValue()) }),
]);
const NUMERIC = ['recipients', 'delivered', 'bounces', 'opens', 'openRate', 'clicks', 'clickRate', 'unsubscribes', 'gifts', 'revenue', 'rpm'];

/** Sends made elsewhere in the range, beside Compass's own flights: their figures, an import and a CSV export. */
export function ExternalMailingsSection({ range }: { range: DateRange }) {
  const [importing, setImporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const external = useListExternalMailings(range, { query: { meta: { errorMessage: 'Could not load external mailings' } } });
  const download = () =>
    downloadFile(
      `/api/external-mailings/export/csv?from=${range.from}&to=${range.to}`,
      `external-mailings-${range.from}-${range.to}.csv`,
    ).catch((e: Error) => setError(e.message));
  return (
    <section aria-labelledby="external-mailings-title" className="mt-4">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 id="external-mailings-title" className="h5 mb-0 me-auto">
          External mailings
        </h2>
        <Button size="sm" variant="outline-secondary" onClick={() => void download()}>
          Export external CSV
        </Button>
        <Button size="sm" onClick={() => setImporting(true)}>
          Import external mailings
        </Button>
      </div>
      {error && <Alert variant="danger">{error}</Alert>}
      {external.isPending ? (
        <PageSpinner label="Loading external mailings" />
      ) : external.isError ? (
        <Alert variant="danger">Could not load external mailings.</Alert>
      ) : external.data.length === 0 ? (
        <EmptyState>No external mailings in this range.</EmptyState>
      ) : (
        <DataTable stickyFirst label="External mailings" columns={columns} data={external.data} numeric={NUMERIC} />
      )}
      <ExternalMailingsImportDialog show={importing} onClose={() => setImporting(false)} />
    </section>
  );
}
