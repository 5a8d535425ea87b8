import { Link } from 'react-router';

export interface Crumb {
  label: string;
  to?: string;
}

/** Bootstrap breadcrumbs; the last crumb is the current page. */
export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="breadcrumb">
      <ol className="breadcrumb">
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li
              key={`${i}-${crumb.label}`}
              className={last ? 'breadcrumb-item active' : 'breadcrumb-item'}
              aria-current={last ? 'page' : undefined}
            >
              {crumb.to && !last ? <Link to={crumb.to}>{crumb.label}</Link> : crumb.label}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
