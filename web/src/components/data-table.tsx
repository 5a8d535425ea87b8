import { Fragment, useMemo, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import {
  createColumnHelper,
  tableFeatures,
  useTable,
  type ColumnDef,
  type Row,
  type RowData,
} from '@tanstack/react-table';
import { ColumnChoice, useHiddenColumns } from '@/components/column-choice';
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
  /**
   * Fixed (module-level or memoized) column definitions: a cell function renders as a component, so a new one each
   * render remounts its cells (an input loses its focus). What changes (a value, a handler) travels in the rows.
   */
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
  /** Holds the first column in place while a wide table scrolls sideways (a row stays named). */
  stickyFirst?: boolean;
  /**
   * Lets the user hide and show columns (all but the first) from a "Columns" menu; the choice is remembered per
   * table under this key.
   */
  columnChoiceKey?: string;
  /** The first cell of each row is the row's header (`<th scope="row">`). */
  rowHeader?: boolean;
  /** Extra classes per column id, for its cells (e.g. `text-break` for long addresses). */
  cellClassName?: Record<string, string>;
  /** Extra classes per column id, for its header (e.g. `text-nowrap`). */
  headerClassName?: Record<string, string>;
  /** A stable id per row (default: its index), so a row keeps its state (a field being typed in) when rows move. */
  getRowId?: (row: T, index: number) => string;
  /**
   * A full-width row under the row (e.g. the links of an opened flight); none when it answers null or undefined.
   */
  rowDetail?: (row: T) => ReactNode;
  /** Extra classes per row (e.g. a total row). */
  rowClassName?: (row: T) => string | undefined;
  /** Shown in one full-width row when there are no rows. */
  empty?: ReactNode;
  /** No header row (a short figure list whose cells say what they are). */
  headless?: boolean;
  /** Rows after the body (totals), as `<tr>` elements. */
  footer?: ReactNode;
  /**
   * Rows after the body (totals) rendered through the same columns as the data, so they align with it and follow
   * the user's column choice. Their ids (getRowId) must differ from the data's.
   */
  footerRows?: T[];
  /** Bootstrap table options: stripes (default on), the compact size (default on), hover (default: rows are links). */
  striped?: boolean;
  bordered?: boolean;
  small?: boolean;
  hover?: boolean;
  className?: string;
  ariaBusy?: boolean;
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
  stickyFirst = false,
  columnChoiceKey,
  rowHeader = false,
  cellClassName = {},
  headerClassName = {},
  getRowId,
  rowDetail,
  rowClassName,
  empty,
  headless = false,
  footer,
  footerRows,
  striped = true,
  bordered = false,
  small = true,
  hover,
  className = 'mb-2',
  ariaBusy,
}: DataTableProps<T>) {
  // Footer rows go through the table with the data (so their cells come from the same columns) and are split off.
  const rowsAndTotals = useMemo(() => (footerRows?.length ? [...data, ...footerRows] : data), [data, footerRows]);
  const table = useTable({ features: dataTableFeatures, columns, data: rowsAndTotals, getRowId });
  const [hidden, toggleColumn] = useHiddenColumns(columnChoiceKey);
  const pages = paging ? Math.max(1, Math.ceil(paging.total / paging.pageSize)) : 1;
  const leafColumns = table.getAllLeafColumns();
  const shown = (id: string) => !hidden.has(id) || id === leafColumns[0]?.id;
  const shownCount = leafColumns.filter((c) => shown(c.id)).length;
  const classes = [stickyFirst ? 'table-sticky-first' : '', className].filter(Boolean).join(' ');
  const allRows = table.getRowModel().rows;
  const rows = allRows.slice(0, data.length);
  const totals = allRows.slice(data.length);
  // A total row is not a link: only body rows take the click.
  const renderRow = (row: Row<DataTableFeatures, T>, clickable: boolean) => (
    <tr
      key={row.id}
      className={rowClassName?.(row.original)}
      onClick={clickable && onRowClick ? () => onRowClick(row.original) : undefined}
      style={clickable && onRowClick ? { cursor: 'pointer' } : undefined}
    >
      {row
        .getAllCells()
        .filter((cell) => shown(cell.column.id))
        .map((cell, i) => {
          const id = cell.column.id;
          const align =
            [numeric.includes(id) ? 'text-end' : '', cellClassName[id] ?? ''].filter(Boolean).join(' ') || undefined;
          return rowHeader && i === 0 ? (
            <th key={cell.id} scope="row" className={align}>
              <table.FlexRender cell={cell} />
            </th>
          ) : (
            <td key={cell.id} className={align}>
              <table.FlexRender cell={cell} />
            </td>
          );
        })}
    </tr>
  );
  return (
    <>
      {columnChoiceKey && (
        <ColumnChoice
          label={label}
          columns={leafColumns.slice(1).map((c) => ({
            id: c.id,
            name: typeof c.columnDef.header === 'string' ? c.columnDef.header : c.id,
          }))}
          hidden={hidden}
          onToggle={toggleColumn}
        />
      )}
      {/* A focusable scroll region (keyboard users can scroll it; axe "scrollable-region-focusable"), with the first
          column held in place (stickyFirst) so a row stays named while its figures scroll into view. */}
      <div className="table-responsive" tabIndex={0} role="region" aria-label={`${label} (scrolls sideways)`}>
      <Table
        striped={striped}
        bordered={bordered}
        hover={hover ?? Boolean(onRowClick)}
        size={small ? 'sm' : undefined}
        aria-label={label}
        aria-busy={ariaBusy}
        className={classes || undefined}
      >
        {!headless && (
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.filter((header) => shown(header.column.id)).map((header) => {
                const id = header.column.id;
                const canSort = sortable.includes(id) && onSortChange;
                const active = sort?.id === id;
                const align =
                  [numeric.includes(id) ? 'text-end' : '', headerClassName[id] ?? ''].filter(Boolean).join(' ') ||
                  undefined;
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
        )}
        <tbody>
          {rows.length === 0 && empty !== undefined && (
            <tr>
              <td colSpan={shownCount} className="text-body-secondary">
                {empty}
              </td>
            </tr>
          )}
          {rows.map((row) => {
            const detail = rowDetail?.(row.original);
            return (
              <Fragment key={row.id}>
                {renderRow(row, true)}
                {detail !== null && detail !== undefined && (
                  <tr>
                    <td colSpan={shownCount}>{detail}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
        {(footer || totals.length > 0) && (
          <tfoot>
            {totals.map((row) => renderRow(row, false))}
            {footer}
          </tfoot>
        )}
      </Table>
      </div>
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
