import { useEffect, type RefObject } from 'react';

/**
 * Makes every sideways-scrolling table box (react-bootstrap's `Table responsive` wrapper, `.table-responsive`) under
 * `root` take keyboard focus, named after its table, so a keyboard user can scroll it with the arrow keys (WCAG
 * 2.1.1; axe's scrollable-region-focusable). react-bootstrap renders that box without passing props through, so the
 * boxes are marked as they appear.
 */
export function useFocusableScrollRegions(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const mark = () => {
      element.querySelectorAll<HTMLElement>('.table-responsive:not([tabindex])').forEach((box) => {
        box.tabIndex = 0;
        box.setAttribute('role', 'region');
        const label = box.querySelector('table')?.getAttribute('aria-label');
        if (label) box.setAttribute('aria-label', label);
      });
      // react-big-calendar's month view scrolls a day's events in a box of its own when they do not fit; it sits
      // inside a grid row, so it only takes focus (a region there would break the row's structure).
      element
        .querySelectorAll<HTMLElement>('.rbc-row-content-scroll-container:not([tabindex])')
        .forEach((box) => {
          box.tabIndex = 0;
        });
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [root]);
}
