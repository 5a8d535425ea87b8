import type { Mailing } from '@/api/gen/model';
import { formatCount } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';

/** The money columns of the mailings table (README "Revenue metrics"). */
export function MailingRevenueHeaders() {
  return (
    <>
      <th scope="col" className="text-end">
        Revenue
      </th>
      <th scope="col" className="text-end">
        Gifts
      </th>
      <th scope="col" className="text-end">
        Response Rate
      </th>
      <th scope="col" className="text-end">
        RPM
      </th>
    </>
  );
}

export function MailingRevenueCells({ mailing }: { mailing: Mailing }) {
  return (
    <>
      <td className="text-end">{formatMoney(mailing.revenue)}</td>
      <td className="text-end">{formatCount(mailing.gifts ?? 0)}</td>
      <td className="text-end">{formatPercent(mailing.responseRate ?? 0, 2)}</td>
      <td className="text-end">{formatMoney(mailing.rpm)}</td>
    </>
  );
}

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
