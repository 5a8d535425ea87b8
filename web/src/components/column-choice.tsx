import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';

const storageKey = (table: string) => `compass.columns.${table}`;

function readHidden(table: string): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(storageKey(table)) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The columns the user hid in the table named `table` (none without a name), kept in localStorage per table. */
export function useHiddenColumns(table: string | undefined): [Set<string>, (id: string, shown: boolean) => void] {
  const [hidden, setHidden] = useState<string[]>(() => (table ? readHidden(table) : []));
  const toggle = (id: string, shown: boolean) => {
    const next = shown ? hidden.filter((h) => h !== id) : [...hidden.filter((h) => h !== id), id];
    setHidden(next);
    if (!table) return;
    if (next.length > 0) localStorage.setItem(storageKey(table), JSON.stringify(next));
    else localStorage.removeItem(storageKey(table));
  };
  return [new Set(hidden), toggle];
}

export interface ColumnChoiceProps {
  /** The table's name, for the menu's label. */
  label: string;
  columns: { id: string; name: string }[];
  hidden: Set<string>;
  onToggle: (id: string, shown: boolean) => void;
}

/** A "Columns" menu of check boxes, one per column the user may hide. */
export function ColumnChoice({ label, columns, hidden, onToggle }: ColumnChoiceProps) {
  return (
    <Dropdown autoClose="outside" className="d-flex justify-content-end mb-1">
      <Dropdown.Toggle size="sm" variant="outline-secondary" aria-label={`Columns of ${label}`}>
        Columns
      </Dropdown.Toggle>
      <Dropdown.Menu className="px-3 py-2">
        {columns.map((c) => (
          <Form.Check
            key={c.id}
            id={`columns-${label}-${c.id}`.replace(/\s+/g, '-')}
            type="checkbox"
            label={c.name}
            checked={!hidden.has(c.id)}
            onChange={(e) => onToggle(c.id, e.currentTarget.checked)}
          />
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
