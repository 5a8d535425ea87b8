import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { isPageHandle } from './route-handle';

/** The browser tab's text: "Lists · Demo for Congress · Compass" (the parts that are known). */
export function documentTitle(page?: string, clientName?: string): string {
  return [page, clientName, 'Compass'].filter((part) => part && part.trim() !== '').join(' · ');
}

/** Keeps the tab title on the innermost route's page title and the client's name. */
export function useDocumentTitle(clientName?: string): void {
  const matches = useMatches();
  const page = [...matches].reverse().map((m) => m.handle).find(isPageHandle)?.title;
  useEffect(() => {
    document.title = documentTitle(page, clientName);
  }, [page, clientName]);
}
