import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { columnsFor, DataTable } from '@/components/data-table';

export interface MappingField {
  id: string;
  label: string;
  /** Other headers that name the field in common exports (any case or punctuation), e.g. "Unique Opens". */
  synonyms?: readonly string[];
}

/** File column header → field id; a column that is not in the map (or maps to "") is ignored. */
export type ColumnMappingValue = Record<string, string>;

/** The field every mapping needs (the server answers "Map a column to Email" otherwise). */
export const EMAIL_FIELD_ID = 'email';

const normalize = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Other headers files commonly use for a field, by the field id's normalized form ("E-mail" needs none). */
const SYNONYMS: Record<string, readonly string[]> = {
  email: ['emailaddress', 'mail', 'mailaddress'],
  firstname: ['first', 'firstname', 'givenname', 'forename', 'fname'],
  lastname: ['last', 'lastname', 'surname', 'familyname', 'lname'],
  phone: ['phonenumber', 'telephone', 'tel', 'mobile', 'cell', 'cellphone'],
  zip: ['zipcode', 'postcode', 'postalcode', 'postal'],
  vanid: ['van', 'vanidnumber'],
  origincode: ['origin', 'source'],
};

/** The header forms that name a field: its id, its label (with and without a "Donor " prefix) and synonyms. */
function namesOf(field: MappingField): Set<string> {
  const id = normalize(field.id);
  const label = normalize(field.label);
  return new Set([
    id,
    label,
    label.replace(/^donor/, ''),
    ...(SYNONYMS[id] ?? []),
    ...(field.synonyms ?? []).map(normalize),
  ]);
}

/**
 * A first guess: a column whose header names a field (its id, its label or a common synonym such as "E-mail",
 * "First Name" or "Zip Code"; case, spaces and punctuation ignored) maps to that field; each field is used at most
 * once.
 */
export function guessMapping(columns: readonly string[], fields: readonly MappingField[]): ColumnMappingValue {
  const mapping: ColumnMappingValue = {};
  const used = new Set<string>();
  const names = fields.map((f) => [f, namesOf(f)] as const);
  for (const column of columns) {
    const key = normalize(column);
    const field = names.find(([f, known]) => !used.has(f.id) && known.has(key))?.[0];
    if (field) {
      mapping[column] = field.id;
      used.add(field.id);
    }
  }
  return mapping;
}

/** Only the mapped columns (what the import call takes as its `mapping` JSON). */
export function mappedColumns(value: ColumnMappingValue): ColumnMappingValue {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== ''));
}

/**
 * The mapping's problems: no column maps to Email (or to each of the required fields given), or a field is chosen
 * for more than one column. Empty when the mapping can be imported.
 */
export function validateMapping(
  value: ColumnMappingValue,
  fields: readonly MappingField[],
  requiredFieldId: string | readonly string[] = EMAIL_FIELD_ID,
): string[] {
  const errors: string[] = [];
  const chosen = Object.values(value).filter((field) => field !== '');
  for (const required of typeof requiredFieldId === 'string' ? [requiredFieldId] : requiredFieldId) {
    if (!chosen.includes(required)) {
      const label = fields.find((f) => f.id === required)?.label ?? 'Email';
      errors.push(`Map a column to ${label}`);
    }
  }
  const seen = new Set<string>();
  const reported = new Set<string>();
  for (const field of chosen) {
    if (seen.has(field) && !reported.has(field)) {
      const label = fields.find((f) => f.id === field)?.label ?? field;
      errors.push(`${label} is mapped to more than one column`);
      reported.add(field);
    }
    seen.add(field);
  }
  return errors;
}

export interface ColumnMappingProps {
  /** The file's column headers, in file order. */
  columns: readonly string[];
  /** The fields a column can be mapped to. */
  fields: readonly MappingField[];
  value: ColumnMappingValue;
  onChange: (value: ColumnMappingValue) => void;
  /** The field (or fields) some column has to map to (default email). */
  requiredFieldId?: string | readonly string[];
  disabled?: boolean;
}

/**
 * One file column of the mapping table with all its select needs: the columns are fixed (a cell is a component,
 * and a new cell function each render would remount the select and lose its focus).
 */
interface MappingRow {
  column: string;
  /** The select's id; the column's name labels it. */
  selectId: string;
  current: string;
  fields: readonly MappingField[];
  /** Fields chosen for another column, not offered again. */
  usedElsewhere: Set<string>;
  disabled: boolean;
  onChoose: (field: string) => void;
}

const mappingCol = columnsFor<MappingRow>();
const mappingColumns = mappingCol.columns([
  mappingCol.accessor('column', {
    header: 'File column',
    cell: ({ row: { original } }) => (
      <label htmlFor={original.selectId} className="mb-0">
        {original.column}
      </label>
    ),
  }),
  mappingCol.display({
    id: 'field',
    header: 'Field',
    cell: ({ row: { original } }) => (
      <Form.Select
        id={original.selectId}
        size="sm"
        value={original.current}
        disabled={original.disabled}
        onChange={(e) => original.onChoose(e.target.value)}
      >
        <option value="">Ignore</option>
        {original.fields.map((field) => (
          <option key={field.id} value={field.id} disabled={original.usedElsewhere.has(field.id)}>
            {field.label}
          </option>
        ))}
      </Form.Select>
    ),
  }),
]);

/**
 * Column mapping: each file column gets a select of fields with "Ignore" as the empty choice. A field already chosen
 * for another column is not offered again, and the mapping's problems ("Map a column to Email") show below.
 */
export function ColumnMapping({
  columns,
  fields,
  value,
  onChange,
  requiredFieldId = EMAIL_FIELD_ID,
  disabled = false,
}: ColumnMappingProps) {
  const id = useId();
  const errors = validateMapping(value, fields, requiredFieldId);
  const setColumn = (column: string, field: string) => {
    const next = { ...value };
    if (field === '') delete next[column];
    else next[column] = field;
    onChange(next);
  };
  const rows: MappingRow[] = columns.map((column, i) => ({
    column,
    selectId: `${id}-${i}`,
    current: value[column] ?? '',
    fields,
    usedElsewhere: new Set(
      Object.entries(value)
        .filter(([other, field]) => other !== column && field !== '')
        .map(([, field]) => field),
    ),
    disabled,
    onChoose: (field) => setColumn(column, field),
  }));
  return (
    <div>
      <DataTable
        label="Column mapping"
        columns={mappingColumns}
        data={rows}
        getRowId={(row, i) => `${i}-${row.column}`}
        striped={false}
        className="align-middle"
      />
      {errors.length > 0 && (
        <div className="text-danger small" role="alert">
          {errors.map((error) => (
            <div key={error}>{error}</div>
          ))}
        </div>
      )}
    </div>
  );
}
