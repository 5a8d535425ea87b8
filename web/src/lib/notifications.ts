import { createStore, useStore } from './store';

/** Snackbar durations from the spec (section 9): errors and the CRM pages' messages 3000 ms, other alerts 5 s. */
export const ERROR_DURATION_MS = 3000;
export const CRM_DURATION_MS = 3000;
export const ALERT_DURATION_MS = 5000;

export type SnackVariant = 'danger' | 'success' | 'info';

export interface Snack {
  id: number;
  message: string;
  variant: SnackVariant;
  delay: number;
}

const store = createStore<Snack[]>([]);
let nextId = 1;

export function notify(message: string, variant: SnackVariant = 'info', delay = ALERT_DURATION_MS): number {
  const id = nextId++;
  store.set((snacks) => [...snacks, { id, message, variant, delay }]);
  return id;
}

export const notifySuccess = (message: string): number => notify(message, 'success', ALERT_DURATION_MS);

/** A success message of the CRM pages (lists, mailings, templates, forms). */
export const notifyCrmSuccess = (message: string): number => notify(message, 'success', CRM_DURATION_MS);

export function dismissSnack(id: number): void {
  store.set((snacks) => snacks.filter((s) => s.id !== id));
}

export function clearSnacks(): void {
  store.set([]);
}

export const useSnacks = (): Snack[] => useStore(store);

const withoutFinalPeriod = (text: string): string => text.replace(/\.\s*$/, '');

/**
 * The general error text: "Error {status}: {message}." for an HTTP error, "Error {message}." otherwise.
 * An HTTP error is anything carrying a numeric status (ApiError).
 */
export function formatError(error: unknown): string {
  if (error !== null && typeof error === 'object' && 'status' in error && typeof error.status === 'number') {
    const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
    return `Error ${error.status}: ${withoutFinalPeriod(message)}.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Error ${withoutFinalPeriod(message)}.`;
}

/** Shows the 3-second error snackbar: a specific message when given, else the general error text. */
export function notifyError(error: unknown, message?: string): number {
  return notify(message ?? formatError(error), 'danger', ERROR_DURATION_MS);
}
