import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { columnsFor, DataTable } from './data-table';

interface Row {
  code: string;
  gifts: number;
  gross: number;
}
const col = columnsFor<Row>();
const columns = col.columns([
  col.accessor('code', { header: 'Source code' }),
  col.accessor('gifts', { header: 'Gifts' }),
  col.accessor('gross', { header: 'Gross' }),
]);
const rows: Row[] = [
  { code: 'EM0101', gifts: 3, gross: 75 },
  { code: 'EM0102', gifts: 1, gross: 10 },
];

const headers = () => within(screen.getByRole('table', { name: 'Codes' })).getAllByRole('columnheader').map((h) => h.textContent);

beforeEach(() => localStorage.clear());

describe('DataTable', () => {
  it('renders the headers and cells, right-aligning numeric columns', () => {
    render(<DataTable label="Codes" columns={columns} data={rows} numeric={['gifts']} />);
    expect(headers()).toEqual(['Source code', 'Gifts', 'Gross']);
    const cell = screen.getByRole('cell', { name: '3' });
    expect(cell).toHaveClass('text-end');
    expect(screen.getByRole('cell', { name: '75' })).not.toHaveClass('text-end');
  });

  it('holds the first column in place only when asked', () => {
    const { unmount } = render(<DataTable label="Codes" columns={columns} data={rows} stickyFirst />);
    expect(screen.getByRole('table', { name: 'Codes' })).toHaveClass('table-sticky-first');
    unmount();
    render(<DataTable label="Codes" columns={columns} data={rows} />);
    expect(screen.getByRole('table', { name: 'Codes' })).not.toHaveClass('table-sticky-first');
  });

  it('lets the user hide a column and remembers it per table', async () => {
    const { unmount } = render(<DataTable label="Codes" columns={columns} data={rows} columnChoiceKey="codes" />);
    await userEvent.click(screen.getByRole('button', { name: 'Columns of Codes' }));
    // The first column names the rows: it cannot be hidden.
    expect(screen.queryByRole('checkbox', { name: 'Source code' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Gifts' }));
    expect(headers()).toEqual(['Source code', 'Gross']);
    expect(screen.queryByRole('cell', { name: '3' })).not.toBeInTheDocument();
    unmount();

    render(<DataTable label="Codes" columns={columns} data={rows} columnChoiceKey="codes" />);
    expect(headers()).toEqual(['Source code', 'Gross']);
    await userEvent.click(screen.getByRole('button', { name: 'Columns of Codes' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Gifts' }));
    expect(headers()).toEqual(['Source code', 'Gifts', 'Gross']);
    expect(localStorage.getItem('compass.columns.codes')).toBeNull();
  });

  it('shows the empty text in one full-width row, and row headers when asked', () => {
    const { unmount } = render(<DataTable label="Codes" columns={columns} data={[]} empty="No codes yet." />);
    expect(screen.getByRole('cell', { name: 'No codes yet.' })).toHaveAttribute('colspan', '3');
    unmount();
    render(<DataTable label="Codes" columns={columns} data={rows} rowHeader />);
    expect(screen.getByRole('rowheader', { name: 'EM0101' })).toBeInTheDocument();
  });

  it('asks the server for an order when a sortable header is clicked', async () => {
    const onSortChange = vi.fn();
    render(
      <DataTable label="Codes" columns={columns} data={rows} sortable={['gifts']} sort={{ id: 'gifts', desc: true }} onSortChange={onSortChange} />,
    );
    expect(screen.getByRole('columnheader', { name: /Gifts/ })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(screen.getByRole('button', { name: /Gifts/ }));
    expect(onSortChange).toHaveBeenCalledWith({ id: 'gifts', desc: false });
  });

  it('renders total rows through the same columns, after the body and following the column choice', async () => {
    const onRowClick = vi.fn();
    render(
      <DataTable
        label="Codes"
        columns={columns}
        data={rows}
        footerRows={[{ code: 'Total', gifts: 4, gross: 85 }]}
        getRowId={(r) => r.code}
        numeric={['gifts', 'gross']}
        rowClassName={(r) => (r.code === 'Total' ? 'fw-bold' : undefined)}
        columnChoiceKey="codes"
        onRowClick={onRowClick}
      />,
    );
    const table = screen.getByRole('table', { name: 'Codes' });
    const [head, body, foot] = within(table).getAllByRole('rowgroup');
    expect(head.tagName).toBe('THEAD');
    expect(within(body).getAllByRole('row')).toHaveLength(2);
    expect(foot.tagName).toBe('TFOOT');
    const total = within(foot).getByRole('row');
    expect(total).toHaveClass('fw-bold');
    expect(within(total).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Total', '4', '85']);
    expect(within(total).getByRole('cell', { name: '85' })).toHaveClass('text-end');
    // A total is not a link.
    await userEvent.click(within(total).getByRole('cell', { name: 'Total' }));
    expect(onRowClick).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Columns of Codes' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Gifts' }));
    expect(within(total).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Total', '85']);
  });

  it('shows a full-width detail row under the rows that have one', () => {
    render(
      <DataTable
        label="Codes"
        columns={columns}
        data={rows}
        rowDetail={(r) => (r.code === 'EM0101' ? <p>Details of {r.code}</p> : null)}
      />,
    );
    const body = within(screen.getByRole('table', { name: 'Codes' })).getAllByRole('rowgroup')[1];
    const lines = within(body).getAllByRole('row');
    expect(lines.map((r) => r.textContent)).toEqual(['EM0101375', 'Details of EM0101', 'EM0102110']);
    expect(within(lines[1]).getByRole('cell')).toHaveAttribute('colspan', '3');
  });

  it('keeps a row (and what is typed in it) by its id when the rows move', async () => {
    const inputCol = columnsFor<Row>();
    const inputColumns = inputCol.columns([
      inputCol.accessor('code', { header: 'Source code' }),
      inputCol.display({ id: 'note', header: 'Note', cell: ({ row }) => <input aria-label={`Note ${row.original.code}`} /> }),
    ]);
    function Reorderable() {
      const [order, setOrder] = useState(rows);
      return (
        <>
          <button type="button" onClick={() => setOrder([...order].reverse())}>
            Reverse
          </button>
          <DataTable label="Codes" columns={inputColumns} data={order} getRowId={(r) => r.code} />
        </>
      );
    }
    render(<Reorderable />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Note EM0101' }), 'keep me');
    await userEvent.click(screen.getByRole('button', { name: 'Reverse' }));
    expect(screen.getAllByRole('textbox').map((t) => t.getAttribute('aria-label'))).toEqual(['Note EM0102', 'Note EM0101']);
    expect(screen.getByRole('textbox', { name: 'Note EM0101' })).toHaveValue('keep me');
  });

  it('adds header classes per column and draws borders when asked', () => {
    render(<DataTable label="Codes" columns={columns} data={rows} headerClassName={{ gifts: 'text-nowrap' }} bordered />);
    expect(screen.getByRole('table', { name: 'Codes' })).toHaveClass('table-bordered');
    expect(screen.getByRole('columnheader', { name: 'Gifts' })).toHaveClass('text-nowrap');
    expect(screen.getByRole('columnheader', { name: 'Gross' })).not.toHaveClass('text-nowrap');
  });
});
