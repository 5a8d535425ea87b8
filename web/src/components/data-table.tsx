import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { createColumnHelper, tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { formatCount } from '@/lib/format';

/** The table features the app's tables use: none of the client-side stages, the server sorts and pages. */
export const dataTableFeatures = tableFeatures({});
export type DataTableFeatures = typeof dataTableFeatures;

/** A column helper for rows of type `T`. */
export const columnsFor = <T extends RowData>() => createColumnHelper<DataTableFeatures, T>();

export interface SortState {
  id: string;
  desc: boolean;
}

export interface DataTableProps<T extends RowData> {
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column
  columns: ColumnDef<DataTableFeatures, T, any>[];
  data: T[];
  /** Column ids whose values are right-aligned (numbers and money). */
  numeric?: string[];
  /** Column ids the server can sort by; clicking their header asks for that order. */
  sortable?: string[];
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  onRowClick?: (row: T) => void;
  /** Server paging: the current page (1-based), its size and the total rows across pages. */
  paging?: { page: number; pageSize: number; total: number; onPageChange: (page: number) => void };
}

/**
 * A table rendered from TanStack Table column definitions with Bootstrap markup. Sorting and paging belong to the
 * server: the table only reports what the user asked for.
 */
export function DataTable<T extends RowData>({
  label,
  columns,
  data,
  numeric = [],
  sortable = [],
  sort,
  onSortChange,
  onRowClick,
  paging,
}: DataTableProps<T>) {
  const table = useTable({ features: dataTableFeatures, columns, data });
  const pages = paging ? Math.max(1, Math.ceil(paging.total / paging.pageSize)) : 1;
  return (
    <>
      <Table striped hover={Boolean(onRowClick)} responsive size="sm" aria-label={label}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const id = header.column.id;
                const canSort = sortable.includes(id) && onSortChange;
                const active = sort?.id === id;
                const align = numeric.includes(id) ? 'text-end' : undefined;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={align}
                    aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : undefined}
                  >
                    {header.isPlaceholder ? null : canSort ? (
                      <Button
                        variant="link"
                        size="sm"
                        className="p-0 text-reset fw-semibold text-decoration-none"
                        onClick={() => onSortChange({ id, desc: active ? !sort.desc : true })}
                      >
                        <table.FlexRender header={header} />
                        {active ? (sort.desc ? ' ▼' : ' ▲') : ''}
                      </Button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              onClick={onRowClick ? () => onRowClick(row.original) : undefined}
              style={onRowClick ? { cursor: 'pointer' } : undefined}
            >
              {row.getAllCells().map((cell) => (
                <td key={cell.id} className={numeric.includes(cell.column.id) ? 'text-end' : undefined}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
      {paging && (
        <div className="d-flex align-items-center gap-2">
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={paging.page <= 1}
            onClick={() => paging.onPageChange(paging.page - 1)}
          >
            Previous
          </Button>
          <span className="small">
            Page {formatCount(paging.page)} of {formatCount(pages)} · {formatCount(paging.total)} rows
          </span>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={paging.page >= pages}
            onClick={() => paging.onPageChange(paging.page + 1)}
          >
            Next
          </Button>
        </div>
      )}
    </>
  );
}
