// Client routes under /console/ on the History API: the URL (path and query) is the state of a
// page, so reloading, the back button and bookmarks keep the view and its filters.
import { h, type ComponentChildren } from 'preact';
import { createStore } from './store';

export const BASE = '/console';

export interface Location {
  path: string;
  query: URLSearchParams;
}

export type Route =
  | { name: 'queue' }
  | { name: 'ticket'; id: number }
  | { name: 'reports' }
  | { name: 'feedback' }
  | { name: 'gaps' }
  | { name: 'sign-in' }
  | { name: 'not-found' };

function here(): Location {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

export const locationStore = createStore<Location>(here());
/** Set once the first page has been shown: later pages move the focus to their heading. */
export const navigation = { happened: false };

window.addEventListener('popstate', () => {
  navigation.happened = true;
  locationStore.set(here());
});

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = to.startsWith('/') ? `${BASE}${to}` : to;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  navigation.happened = !options.replace || navigation.happened;
  locationStore.set(here());
}

export function routeOf(path: string): Route {
  const clean = path.replace(/\/+$/, '') || '/';
  if (clean === '/') return { name: 'queue' };
  const ticket = /^\/tickets\/(\d{1,10})$/.exec(clean);
  if (ticket) return { name: 'ticket', id: Number(ticket[1]) };
  if (clean === '/reports') return { name: 'reports' };
  if (clean === '/feedback') return { name: 'feedback' };
  if (clean === '/gaps') return { name: 'gaps' };
  if (clean === '/sign-in') return { name: 'sign-in' };
  return { name: 'not-found' };
}

/** A link to a console page (href relative to /console) that navigates without a reload. */
export function Link(props: {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}) {
  const { href, children, ...rest } = props;
  return h(
    'a',
    {
      ...rest,
      href: `${BASE}${href}`,
      onClick: (event: MouseEvent) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        navigate(href);
      },
    },
    children,
  );
}
