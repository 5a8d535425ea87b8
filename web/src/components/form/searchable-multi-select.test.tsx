import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OriginCode } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { OriginCodeSelect } from './origin-code-select';
import { SearchableMultiSelect, type MultiSelectItem } from './searchable-multi-select';

const ITEMS: MultiSelectItem[] = [
  { id: 1, label: 'Door knock' },
  { id: 2, label: 'Rally 2024' },
  { id: 3, label: 'Website' },
];

function Harness({ onSearch = () => {}, initial = [] }: { onSearch?: (term: string) => void; initial?: MultiSelectItem[] }) {
  const [value, setValue] = useState<MultiSelectItem[]>(initial);
  return (
    <>
      <SearchableMultiSelect label="Origin codes" value={value} onChange={setValue} options={ITEMS} onSearch={onSearch} />
      <output data-testid="value">{value.map((v) => v.id).join(',')}</output>
    </>
  );
}

describe('SearchableMultiSelect', () => {
  afterEach(() => vi.useRealTimers());

  it('adds a clicked option and no longer offers it', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('combobox', { name: 'Origin codes' }));
    await userEvent.click(screen.getByRole('option', { name: 'Rally 2024' }));
    expect(screen.getByTestId('value')).toHaveTextContent('2');
    expect(screen.queryByRole('option', { name: 'Rally 2024' })).not.toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Selected origin codes' })).toHaveTextContent('Rally 2024');
  });

  it('picks the highlighted option with the keyboard without submitting', async () => {
    const onSubmit = vi.fn((e: React.FormEvent) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Harness />
      </form>,
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Origin codes' }));
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('value')).toHaveTextContent('2');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('choosing an option inside a form does not submit it', async () => {
    const onSubmit = vi.fn((e: React.FormEvent) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Harness />
      </form>,
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Origin codes' }));
    await userEvent.click(screen.getByRole('option', { name: 'Website' }));
    expect(screen.getByTestId('value')).toHaveTextContent('3');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('removes a chosen item with its remove button', async () => {
    render(<Harness initial={[ITEMS[0], ITEMS[2]]} />);
    expect(screen.getByTestId('value')).toHaveTextContent('1,3');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Door knock' }));
    expect(screen.getByTestId('value')).toHaveTextContent('3');
    expect(screen.queryByRole('button', { name: 'Remove Door knock' })).not.toBeInTheDocument();
  });

  it('searches only after the term has been unchanged for 50 ms', () => {
    vi.useFakeTimers();
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    act(() => vi.advanceTimersByTime(50));
    onSearch.mockClear();
    const input = screen.getByRole('combobox', { name: 'Origin codes' });
    fireEvent.change(input, { target: { value: 'r' } });
    act(() => vi.advanceTimersByTime(30));
    fireEvent.change(input, { target: { value: 'ra' } });
    act(() => vi.advanceTimersByTime(30));
    fireEvent.change(input, { target: { value: 'ral' } });
    act(() => vi.advanceTimersByTime(49));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith('ral');
  });
});

describe('OriginCodeSelect', () => {
  const CODES: OriginCode[] = [
    { id: 4, name: 'Rally 2024', label: 'Rally 2024' },
    { id: 5, name: 'Rally 2025', label: 'Rally 2025' },
  ];

  beforeEach(() => {
    server.use(
      http.all('*', ({ request }) => {
        const q = new URL(request.url).searchParams.get('q') ?? '';
        return HttpResponse.json(CODES.filter((c) => c.name.toLowerCase().includes(q.toLowerCase())));
      }),
    );
  });
  afterEach(() => act(() => clearSnacks()));

  function Harness() {
    const [value, setValue] = useState<OriginCode[]>([]);
    return (
      <>
        <OriginCodeSelect value={value} onChange={setValue} />
        <output data-testid="value">{value.map((v) => v.id).join(',')}</output>
      </>
    );
  }

  it('searches the server with the typed term and adds the chosen code', async () => {
    renderWithProviders(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Origin codes' });
    await userEvent.type(input, '2025');
    await waitFor(() =>
      expect(sent().some((r) => r.url === '/api/external-origin-code/search?q=2025')).toBe(true),
    );
    await userEvent.click(await screen.findByRole('option', { name: 'Rally 2025' }));
    expect(screen.getByTestId('value')).toHaveTextContent('5');
  });
});
