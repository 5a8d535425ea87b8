import { columnsFor, DataTable } from '@/components/data-table';
import type { JourneyStepFigures } from '@/api/gen/model';
import { findStep, STEP_LABELS } from '../definition';
import { count, dollars } from '../describe';
import type { JourneyDefinition } from '../types';

type Row = JourneyStepFigures & { kind: string };

type Count = 'reached' | 'sent' | 'delivered' | 'human_opens' | 'clicks' | 'unsubscribes' | 'gifts';
const HEADERS: Record<Count, string> = {
  reached: 'Reached',
  sent: 'Sent',
  delivered: 'Delivered',
  human_opens: 'Human opens',
  clicks: 'Clicks',
  unsubscribes: 'Unsubscribes',
  gifts: 'Gifts',
};

const col = columnsFor<Row>();
const countColumn = (key: Count) => col.accessor(key, { header: HEADERS[key], cell: (info) => count(info.getValue()) });
const columns = col.columns([
  col.accessor('step_id', { header: 'Step' }),
  col.accessor('kind', { header: 'Kind' }),
  countColumn('reached'),
  countColumn('sent'),
  countColumn('delivered'),
  countColumn('human_opens'),
  countColumn('clicks'),
  countColumn('unsubscribes'),
  countColumn('gifts'),
  col.accessor('revenue_cents', { header: 'Revenue', cell: (info) => dollars(info.getValue()) }),
  col.accessor('rpm_cents', { header: 'RPM', cell: (info) => dollars(info.getValue()) }),
]);

const NUMERIC = ['reached', 'sent', 'delivered', 'human_opens', 'clicks', 'unsubscribes', 'gifts', 'revenue_cents', 'rpm_cents'];

/** Per step: contacts who reached it, e-mails sent and delivered, human opens, clicks, unsubscribes, gifts, revenue and RPM. */
export function StepFiguresTable({ steps, definition }: { steps: JourneyStepFigures[]; definition?: JourneyDefinition }) {
  // In the order the steps are drawn (then any the current definition no longer has).
  const order = new Map((definition?.steps ?? []).map((s, i) => [s.id, i]));
  const rows = steps
    .map((s) => {
      const step = definition ? findStep(definition, s.step_id) : undefined;
      return { ...s, kind: step ? STEP_LABELS[step.kind] : '' };
    })
    .sort((a, b) => (order.get(a.step_id) ?? order.size) - (order.get(b.step_id) ?? order.size));
  return (
    <DataTable
      label="Step figures"
      columns={columns}
      data={rows}
      numeric={NUMERIC}
      rowHeader
      getRowId={(r) => r.step_id}
      empty="No step figures yet."
    />
  );
}
