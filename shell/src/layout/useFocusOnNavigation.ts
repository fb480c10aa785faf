import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * After the visitor moves to another page, focus goes to the new page's `h1` inside `main`: a screen reader
 * reads where they are, and the next Tab starts in the page, not in the header they left. A remote's heading
 * appears only once its code has loaded, so the hook waits for it; it gives up when the visitor has moved
 * focus themselves meanwhile. The first page of a visit keeps the browser's start (the skip link comes first).
 */
export function useFocusOnNavigation(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    const container = main.current;
    if (shown.current === pathname || !container) return undefined;
    shown.current = pathname;
    const focusedBefore = document.activeElement;
    const focusHeading = (): boolean => {
      const heading = container.querySelector('h1');
      if (!heading) return false;
      const focused = document.activeElement;
      if (focused === null || focused === document.body || focused === focusedBefore) {
        heading.tabIndex = -1;
        heading.focus();
      }
      return true;
    };
    if (focusHeading()) return undefined;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(container, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname, main]);
}
