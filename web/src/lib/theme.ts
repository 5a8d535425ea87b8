import { createStore, useStore } from './store';

export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';

/** The stored choice, else the system setting. index.html applies the same rule before the bundle loads. */
export function initialTheme(): Theme {
  const stored = localStorage.getItem(THEME_KEY);
  if (stored === 'light' || stored === 'dark') return stored;
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
}

const store = createStore<Theme>(initialTheme());

export function setTheme(theme: Theme): void {
  localStorage.setItem(THEME_KEY, theme);
  document.documentElement.setAttribute('data-bs-theme', theme);
  store.set(theme);
}

export const useTheme = (): Theme => useStore(store);
