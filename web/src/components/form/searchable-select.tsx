import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { SEARCH_DEBOUNCE_MS, type MultiSelectItem } from './searchable-multi-select';

export type SelectItem = MultiSelectItem;

export interface SearchableSelectProps<T extends SelectItem> {
  /** The field label (the search box's accessible name). */
  label: string;
  /** The chosen item, or null. */
  value: T | null;
  onChange: (item: T | null) => void;
  /** The options matching the current search (the caller loads them for the debounced term). */
  options: T[];
  /** Called with the search term after it has been unchanged for `debounceMs` (pass a stable function). */
  onSearch: (term: string) => void;
  loading?: boolean;
  debounceMs?: number;
  placeholder?: string;
  disabled?: boolean;
  /** Shown under the box. */
  hint?: string;
}

/**
 * A searchable single select: the box shows the chosen item's label; typing searches (debounced, the caller turns
 * the term into options) and choosing an option replaces the value. Clearing the box clears the value.
 */
export function SearchableSelect<T extends SelectItem>({
  label,
  value,
  onChange,
  options,
  onSearch,
  loading = false,
  debounceMs = SEARCH_DEBOUNCE_MS,
  placeholder = 'Search…',
  disabled = false,
  hint,
}: SearchableSelectProps<T>) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-options`;
  // null while the user is not typing: the box then shows the chosen item's label.
  const [term, setTerm] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const debouncedTerm = useDebouncedValue(term ?? '', debounceMs);

  useEffect(() => {
    onSearch(debouncedTerm);
  }, [debouncedTerm, onSearch]);

  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));

  const choose = (item: T) => {
    onChange(item);
    setTerm(null);
    setOpen(false);
    setActive(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive(Math.min(activeIndex + 1, options.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive(Math.max(activeIndex - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = options[activeIndex];
      if (open && item) choose(item);
    } else if (event.key === 'Escape') {
      setOpen(false);
      setTerm(null);
    }
  };

  const showList = open && !disabled;
  return (
    <Form.Group className="searchable-select mb-3 position-relative">
      <Form.Label htmlFor={inputId}>{label}</Form.Label>
      <Form.Control
        id={inputId}
        type="search"
        role="combobox"
        autoComplete="off"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && options.length > 0 ? `${listId}-${activeIndex}` : undefined}
        placeholder={placeholder}
        value={term ?? value?.label ?? ''}
        disabled={disabled}
        onChange={(e) => {
          setTerm(e.target.value);
          if (e.target.value === '') onChange(null);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setTerm(null);
        }}
        onKeyDown={onKeyDown}
      />
      {hint && <Form.Text muted>{hint}</Form.Text>}
      {showList && (
        <ListGroup
          id={listId}
          role="listbox"
          aria-label={label}
          className="position-absolute start-0 end-0 mt-1 shadow-sm overflow-auto"
          style={{ maxHeight: '16rem', zIndex: 1050 }}
        >
          {loading && options.length === 0 ? (
            <ListGroup.Item className="text-body-secondary">
              <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              Searching…
            </ListGroup.Item>
          ) : options.length === 0 ? (
            <ListGroup.Item className="text-body-secondary">No matches</ListGroup.Item>
          ) : (
            options.map((option, i) => (
              <ListGroup.Item
                key={option.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={value?.id === option.id}
                action
                type="button"
                active={i === activeIndex}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(option)}
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
