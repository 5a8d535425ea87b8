import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SearchableSelect, type SelectItem } from './searchable-select';

const OPTIONS: SelectItem[] = [
  { id: 1, label: 'spring-form' },
  { id: 2, label: 'summer-rally' },
];

function Harness({ onSearch, onChange }: { onSearch: (term: string) => void; onChange?: (item: SelectItem | null) => void }) {
  const [value, setValue] = useState<SelectItem | null>(null);
  return (
    <SearchableSelect
      label="Origin code"
      value={value}
      onChange={(item) => {
        setValue(item);
        onChange?.(item);
      }}
      options={OPTIONS}
      onSearch={onSearch}
    />
  );
}

describe('SearchableSelect', () => {
  it('searches with the debounced term and keeps one chosen item', async () => {
    const onSearch = vi.fn();
    const onChange = vi.fn();
    render(<Harness onSearch={onSearch} onChange={onChange} />);
    const box = screen.getByRole('combobox', { name: 'Origin code' });
    await userEvent.type(box, 'spr');
    await waitFor(() => expect(onSearch).toHaveBeenLastCalledWith('spr'));
    await userEvent.click(screen.getByRole('option', { name: 'spring-form' }));
    expect(onChange).toHaveBeenLastCalledWith(OPTIONS[0]);
    expect(box).toHaveValue('spring-form');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await userEvent.click(box);
    await userEvent.click(screen.getByRole('option', { name: 'summer-rally' }));
    expect(onChange).toHaveBeenLastCalledWith(OPTIONS[1]);
    expect(box).toHaveValue('summer-rally');

    await userEvent.clear(box);
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('picks the highlighted option with the keyboard', async () => {
    const onChange = vi.fn();
    render(<Harness onSearch={vi.fn()} onChange={onChange} />);
    const box = screen.getByRole('combobox', { name: 'Origin code' });
    await userEvent.click(box);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(OPTIONS[1]);
  });
});
