import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useSearchOriginCodes } from '@/api/gen';
import type { OriginCode } from '@/api/gen/model';
import { SearchableMultiSelect } from './searchable-multi-select';
import { SearchableSelect } from './searchable-select';

export interface OriginCodeSelectProps {
  value: OriginCode[];
  onChange: (codes: OriginCode[]) => void;
  disabled?: boolean;
}

/** The searchable multi-select of the client's origin codes ("Origin codes"); searches as the user types. */
export function OriginCodeSelect({ value, onChange, disabled }: OriginCodeSelectProps) {
  const [term, setTerm] = useState('');
  const search = useSearchOriginCodes(term ? { q: term } : undefined, {
    query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load origin codes' } },
  });
  return (
    <SearchableMultiSelect
      label="Origin codes"
      value={value}
      onChange={onChange}
      options={search.data ?? []}
      onSearch={setTerm}
      loading={search.isFetching}
      disabled={disabled}
      placeholder="Search origin codes…"
    />
  );
}

export interface OriginCodeSingleSelectProps {
  value: OriginCode | null;
  onChange: (code: OriginCode | null) => void;
  disabled?: boolean;
  label?: string;
}

/** The searchable single select of the client's origin codes (`?q=` search, 50 ms debounce). */
export function OriginCodeSingleSelect({ value, onChange, disabled, label = 'Origin code' }: OriginCodeSingleSelectProps) {
  const [term, setTerm] = useState('');
  const search = useSearchOriginCodes(term ? { q: term } : undefined, {
    query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load origin codes' } },
  });
  return (
    <SearchableSelect
      label={label}
      value={value}
      onChange={onChange}
      options={search.data ?? []}
      onSearch={setTerm}
      loading={search.isFetching}
      disabled={disabled}
      placeholder="Search origin codes…"
    />
  );
}
