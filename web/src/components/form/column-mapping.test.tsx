import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ColumnMapping, guessMapping, mappedColumns, validateMapping, type ColumnMappingValue } from './column-mapping';

const FIELDS = [
  { id: 'email', label: 'Email' },
  { id: 'first_name', label: 'First name' },
  { id: 'last_name', label: 'Last name' },
];

function Harness({ initial = {} }: { initial?: ColumnMappingValue }) {
  const [value, setValue] = useState<ColumnMappingValue>(initial);
  return (
    <>
      <ColumnMapping columns={['E-mail address', 'Given', 'Surname']} fields={FIELDS} value={value} onChange={setValue} />
      <output data-testid="json">{JSON.stringify(mappedColumns(value))}</output>
    </>
  );
}

describe('ColumnMapping', () => {
  it('asks for an Email column until one is mapped and offers each field once', async () => {
    render(<Harness />);
    expect(screen.getByRole('alert')).toHaveTextContent('Map a column to Email');
    const email = screen.getByRole('combobox', { name: 'E-mail address' });
    expect(email).toHaveValue('');
    expect(screen.getAllByRole('option', { name: 'Ignore' })).toHaveLength(3);

    await userEvent.selectOptions(email, 'email');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Email is taken: the other columns cannot choose it again.
    const given = screen.getByRole('combobox', { name: 'Given' });
    expect(given.querySelector('option[value="email"]')).toBeDisabled();
    expect(email.querySelector('option[value="email"]')).toBeEnabled();

    await userEvent.selectOptions(given, 'first_name');
    expect(screen.getByTestId('json')).toHaveTextContent(
      JSON.stringify({ 'E-mail address': 'email', Given: 'first_name' }),
    );

    await userEvent.selectOptions(email, '');
    expect(screen.getByRole('alert')).toHaveTextContent('Map a column to Email');
    expect(screen.getByTestId('json')).toHaveTextContent(JSON.stringify({ Given: 'first_name' }));
  });
});

describe('the column mapping table', () => {
  it('has a row per file column: its name labelling the select of its field', async () => {
    render(<Harness initial={{ Surname: 'last_name' }} />);
    const table = screen.getByRole('table', { name: 'Column mapping' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['File column', 'Field']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['E-mail address', 'Given', 'Surname']);
    expect(within(rows[2]).getByRole('combobox', { name: 'Surname' })).toHaveValue('last_name');

    // Choosing keeps the focus on the select (the row is not drawn anew).
    const given = within(rows[1]).getByRole('combobox', { name: 'Given' });
    await userEvent.selectOptions(given, 'first_name');
    expect(given).toBeInTheDocument();
    expect(given).toHaveFocus();
    expect(given).toHaveValue('first_name');
  });
});

describe('validateMapping', () => {
  it('reports a missing Email and fields mapped twice', () => {
    expect(validateMapping({}, FIELDS)).toEqual(['Map a column to Email']);
    expect(validateMapping({ a: 'email', b: 'first_name', c: 'first_name' }, FIELDS)).toEqual([
      'First name is mapped to more than one column',
    ]);
    expect(validateMapping({ a: 'email', b: '' }, FIELDS)).toEqual([]);
  });
});

describe('guessMapping', () => {
  it('matches headers to field ids and labels, each field once', () => {
    expect(guessMapping(['EMAIL', 'First Name', 'last_name', 'Email', 'Notes'], FIELDS)).toEqual({
      EMAIL: 'email',
      'First Name': 'first_name',
      last_name: 'last_name',
    });
  });
});

describe('guessMapping forgives case, spaces and common synonyms (issue 17, item 15)', () => {
  it('pre-maps "E-mail", "First Name", "Surname", "Zip Code" and "Mobile"', () => {
    const fields = [
      { id: 'email', label: 'Email' },
      { id: 'first_name', label: 'First name' },
      { id: 'last_name', label: 'Last name' },
      { id: 'phone', label: 'Phone' },
      { id: 'zip', label: 'Donor ZIP' },
    ];
    expect(guessMapping(['E-mail', ' First Name ', 'Surname', 'Zip Code', 'Mobile', 'Notes'], fields)).toEqual({
      'E-mail': 'email',
      ' First Name ': 'first_name',
      Surname: 'last_name',
      'Zip Code': 'zip',
      Mobile: 'phone',
    });
  });
});
