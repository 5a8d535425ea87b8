import type { Mailing } from '@/api/gen/model';
import { columnsFor } from '@/components/data-table';
import { formatCount } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';

/**
 * Whether the answer carries money figures: the server leaves them out for users without pageContributions or
 * pagePerformance, and then the columns and figures are not shown at all.
 */
export function hasMoney(mailing: Mailing): boolean {
  return mailing.revenue !== undefined;
}

const col = columnsFor<Mailing>();

/** The money columns of the mailings table (docs/metrics.md). */
export const MAILING_REVENUE_COLUMNS = [
  col.accessor('revenue', { header: 'Revenue', cell: (info) => formatMoney(info.getValue()) }),
  col.accessor('gifts', { header: 'Gifts', cell: (info) => formatCount(info.getValue() ?? 0) }),
  col.accessor('responseRate', { header: 'Response Rate', cell: (info) => formatPercent(info.getValue() ?? 0, 2) }),
  col.accessor('rpm', { header: 'RPM', cell: (info) => formatMoney(info.getValue()) }),
];
export const MAILING_REVENUE_IDS = ['revenue', 'gifts', 'responseRate', 'rpm'];

/** The money figures of a sent mailing, beside its delivery figures. */
export function MailingRevenueFigures({ mailing, id }: { mailing: Mailing; id: (name: string) => string }) {
  const figures: [string, string, string][] = [
    ['revenue', 'Revenue', formatMoney(mailing.revenue)],
    ['gifts', 'Gifts', formatCount(mailing.gifts ?? 0)],
    ['donors', 'Donors', formatCount(mailing.donors ?? 0)],
    ['response-rate', 'Response rate', formatPercent(mailing.responseRate ?? 0, 2)],
    ['rpm', 'RPM', formatMoney(mailing.rpm)],
  ];
  return (
    <>
      {figures.map(([name, label, value]) => (
        <div key={name} className="col-6 col-md-3">
          <dt id={id(name)} className="small fw-normal text-body-secondary">
            {label}
          </dt>
          <dd aria-labelledby={id(name)} className="fs-5 mb-0">
            {value}
          </dd>
        </div>
      ))}
    </>
  );
}
