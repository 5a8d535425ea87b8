import { Fragment, type ReactNode } from 'react';

export type DetailRow = [label: string, value: ReactNode];

/** Label/value pairs as a two-column definition list. */
export function DetailGrid({ rows }: { rows: DetailRow[] }) {
  return (
    <dl className="row mb-0">
      {rows.map(([label, value], i) => (
        <Fragment key={label}>
          <dt className="col-sm-3">{label}</dt>
          <dd className={i === rows.length - 1 ? 'col-sm-9 mb-0' : 'col-sm-9'}>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
