import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import CloseButton from 'react-bootstrap/CloseButton';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useDebouncedValue } from '@/lib/use-debounced-value';

/** The search debounce of the spec's multi-selects. */
export const SEARCH_DEBOUNCE_MS = 50;

export interface MultiSelectItem {
  id: number | string;
  label: string;
}

export interface SearchableMultiSelectProps<T extends MultiSelectItem> {
  /** The field label (the search box's accessible name). */
  label: string;
  /** The chosen items. */
  value: T[];
  onChange: (items: T[]) => void;
  /** The options matching the current search (the caller loads them for the debounced term). */
  options: T[];
  /** Called with the search term after it has been unchanged for `debounceMs` (pass a stable function). */
  onSearch: (term: string) => void;
  /** Shows a spinner in the option list while options load. */
  loading?: boolean;
  debounceMs?: number;
  placeholder?: string;
  disabled?: boolean;
}

/**
 * A searchable multi-select: a search box whose (debounced) term the caller turns into options; choosing an option
 * adds it to the chosen items, which are shown as badges with a remove button.
 */
export function SearchableMultiSelect<T extends MultiSelectItem>({
  label,
  value,
  onChange,
  options,
  onSearch,
  loading = false,
  debounceMs = SEARCH_DEBOUNCE_MS,
  placeholder = 'Search…',
  disabled = false,
}: SearchableMultiSelectProps<T>) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-options`;
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const debouncedTerm = useDebouncedValue(term, debounceMs);

  useEffect(() => {
    onSearch(debouncedTerm);
  }, [debouncedTerm, onSearch]);

  const chosen = new Set(value.map((item) => item.id));
  const available = options.filter((option) => !chosen.has(option.id));
  const activeIndex = Math.min(active, Math.max(available.length - 1, 0));

  // A pick clears the search and closes the list, so the next control is where the user expects it.
  const add = (item: T) => {
    onChange([...value, item]);
    setTerm('');
    setOpen(false);
    setActive(0);
  };
  const remove = (item: T) => onChange(value.filter((v) => v.id !== item.id));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive(Math.min(activeIndex + 1, available.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive(Math.max(activeIndex - 1, 0));
    } else if (event.key === 'Enter') {
      // Enter picks the highlighted option and never submits the surrounding form.
      event.preventDefault();
      const item = available[activeIndex];
      if (open && item) add(item);
    } else if (event.key === 'Escape') {
      setOpen(false);
    } else if (event.key === 'Backspace' && term === '' && value.length > 0) {
      remove(value[value.length - 1]);
    }
  };

  const showList = open && !disabled;
  return (
    <Form.Group className="searchable-multi-select mb-3 position-relative">
      <Form.Label htmlFor={inputId}>{label}</Form.Label>
      {value.length > 0 && (
        <ul className="list-unstyled d-flex flex-wrap gap-2 mb-2" aria-label={`Selected ${label.toLowerCase()}`}>
          {value.map((item) => (
            <li key={item.id}>
              <Badge bg="secondary" className="d-inline-flex align-items-center gap-2 fs-6 fw-normal">
                {item.label}
                <CloseButton
                  variant="white"
                  aria-label={`Remove ${item.label}`}
                  onClick={() => remove(item)}
                  disabled={disabled}
                  style={{ fontSize: '0.6rem' }}
                />
              </Badge>
            </li>
          ))}
        </ul>
      )}
      <Form.Control
        id={inputId}
        type="search"
        role="combobox"
        autoComplete="off"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && available.length > 0 ? `${listId}-${activeIndex}` : undefined}
        placeholder={placeholder}
        value={term}
        disabled={disabled}
        onChange={(e) => {
          setTerm(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {showList && (
        <ListGroup
          id={listId}
          role="listbox"
          aria-label={label}
          aria-multiselectable="true"
          className="position-absolute start-0 end-0 mt-1 shadow-sm overflow-auto"
          style={{ maxHeight: '16rem', zIndex: 1050 }}
        >
          {loading && available.length === 0 ? (
            <ListGroup.Item className="text-body-secondary">
              <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              Searching…
            </ListGroup.Item>
          ) : available.length === 0 ? (
            <ListGroup.Item className="text-body-secondary">No matches</ListGroup.Item>
          ) : (
            available.map((option, i) => (
              <ListGroup.Item
                key={option.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={false}
                action
                type="button"
                active={i === activeIndex}
                // Keep the focus in the search box so the list stays open.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => add(option)}
              >
                {option.label}
              </ListGroup.Item>
            ))
          )}
        </ListGroup>
      )}
    </Form.Group>
  );
}
