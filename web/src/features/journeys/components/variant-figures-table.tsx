import { columnsFor, DataTable } from '@/components/data-table';
import type { JourneyStepFigures, JourneyVariantFigures } from '@/api/gen/model';
import { count, dollars } from '../describe';

type Row = JourneyVariantFigures & { step_id: string };

type Count = 'recipients' | 'delivered' | 'human_opens' | 'clicks' | 'gifts';
const HEADERS: Record<Count, string> = {
  recipients: 'Recipients',
  delivered: 'Delivered',
  human_opens: 'Human opens',
  clicks: 'Clicks',
  gifts: 'Gifts',
};

const col = columnsFor<Row>();
const countColumn = (key: Count) => col.accessor(key, { header: HEADERS[key], cell: (info) => count(info.getValue()) });
const columns = col.columns([
  col.accessor('step_id', { header: 'Step' }),
  col.accessor('variant', { header: 'Variant' }),
  countColumn('recipients'),
  countColumn('delivered'),
  countColumn('human_opens'),
  countColumn('clicks'),
  countColumn('gifts'),
  col.accessor('revenue_cents', { header: 'Revenue', cell: (info) => dollars(info.getValue()) }),
  col.accessor('rpm_cents', { header: 'RPM', cell: (info) => dollars(info.getValue()) }),
]);

const NUMERIC = ['recipients', 'delivered', 'human_opens', 'clicks', 'gifts', 'revenue_cents', 'rpm_cents'];

/** The send steps that mail in variants, one row per step and variant; nothing when no step has variants. */
export function VariantFiguresTable({ steps }: { steps: JourneyStepFigures[] }) {
  const rows = steps
    .filter((s) => s.variants.length > 1)
    .flatMap((s) => s.variants.map((v) => ({ ...v, step_id: s.step_id })));
  if (rows.length === 0) return null;
  return (
    <>
      <h2 className="h5 mt-4">Variants</h2>
      <DataTable
        label="Variant figures"
        columns={columns}
        data={rows}
        numeric={NUMERIC}
        rowHeader
        getRowId={(r) => `${r.step_id}-${r.variant}`}
      />
      <p className="small text-body-secondary">
        Each recipient of a step gets one variant, drawn evenly; RPM is revenue per 1,000 of the variant&apos;s e-mails delivered.
      </p>
    </>
  );
}
