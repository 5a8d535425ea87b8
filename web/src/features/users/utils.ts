import { useCallback, useMemo, useState } from 'react';
import type { ManagedUser } from '@/api/gen/model';
import type { MultiSelectItem } from '@/components/form/searchable-multi-select';

export const fullName = (user: { firstName: string; lastName: string }): string =>
  `${user.firstName} ${user.lastName}`.trim();

export type UserStatus = 'Awaiting verification' | 'Disabled' | 'Enabled';

/** An unverified e-mail comes first: such an account cannot sign in even once enabled. */
export function userStatus(user: Pick<ManagedUser, 'emailVerified' | 'enabled'>): UserStatus {
  if (!user.emailVerified) return 'Awaiting verification';
  return user.enabled ? 'Enabled' : 'Disabled';
}

export const USER_KIND_LABELS: Record<string, string> = { client: 'Client', universal: 'Universal' };

export const TWO_FACTOR_LABELS: Record<string, string> = {
  none: 'None',
  email: 'Email',
  phone: 'Phone',
  app: 'Authenticator app',
};


/** Six digits, as authenticator apps show them. */
export const isOneTimeCode = (value: string): boolean => /^\d{6}$/.test(value.trim());

const detailValue = (value: unknown): string => {
  if (Array.isArray(value)) return value.map(detailValue).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/** An audit event's JSON detail as "key: value; …" (the raw text when it is not a JSON object). */
export function describeDetail(detail: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(detail);
  } catch {
    return detail;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return detail;
  return Object.entries(parsed)
    .map(([key, value]) => `${key}: ${detailValue(value)}`)
    .join('; ');
}

/** Names for ids (an unknown id shows as "#id"). */
export function namesFor(ids: readonly number[], items: readonly { id: number; label: string }[] | undefined): string[] {
  const byId = new Map((items ?? []).map((item) => [item.id, item.label]));
  return ids.map((id) => byId.get(id) ?? `#${id}`);
}

/**
 * Local filtering for a SearchableMultiSelect over a short, fully loaded list: returns the options matching the
 * current search term and a stable onSearch.
 */
export function useLocalOptions<T extends MultiSelectItem>(items: readonly T[]) {
  const [term, setTerm] = useState('');
  const onSearch = useCallback((value: string) => setTerm(value.trim().toLowerCase()), []);
  const options = useMemo(
    () => (term === '' ? [...items] : items.filter((item) => item.label.toLowerCase().includes(term))),
    [items, term],
  );
  return { options, onSearch };
}
