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
});
