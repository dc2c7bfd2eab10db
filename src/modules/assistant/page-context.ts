// The page a member asks from: the chat widget sends it in `context` ({"page": {"module": "wallet",
// "route": "/wallet/refunds"}}; the platform's older script sends "route_name" instead). Passages
// list the pages they are about (<!-- pages: … --> in the knowledge base), and a passage on the
// member's page is the likelier answer to a vague question ("why is this pending?").
import type { Passage } from './knowledge-files.js';

export interface PageRef {
  module?: string;
  /** The path, with real ids (/investments/42) or the app's placeholders (/investments/:id). */
  route?: string;
  /** The front end's name of the route (projects.show). */
  name?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;

/** The page of a chat's context, or undefined when it names none. */
export function pageFromContext(context: Record<string, unknown> | null | undefined): PageRef | undefined {
  const page = context?.page;
  if (page === null || typeof page !== 'object' || Array.isArray(page)) return undefined;
  const fields = page as Record<string, unknown>;
  const ref: PageRef = {
    module: text(fields.module),
    route: text(fields.route) ?? text(fields.path),
    name: text(fields.route_name) ?? text(fields.name),
  };
  return ref.module || ref.route || ref.name ? ref : undefined;
}

/** The segments of a path, without a query, a fragment or a trailing slash. */
function segments(path: string): string[] {
  return path
    .replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean);
}

/** A passage's route (with :param placeholders) matches the member's path, its placeholders matching any value. */
export function routeMatches(pattern: string, route: string): boolean {
  const want = segments(pattern.toLowerCase());
  const have = segments(route);
  return (
    want.length === have.length &&
    want.every((segment, i) => segment === have[i] || segment.startsWith(':') || have[i]!.startsWith(':'))
  );
}

/**
 * How closely each passage belongs to the page: 1 when it lists the page's route or route name,
 * moduleShare when it lists only the page's module, else 0 (absent). A route listed as it is wins
 * over a pattern: on /projects/create, passages of /projects/:id do not count when some passage
 * lists /projects/create itself.
 */
export function pageAffinities(passages: Passage[], page: PageRef, moduleShare: number): Map<string, number> {
  const exact = new Map<string, number>();
  const patterns = new Map<string, number>();
  const route = page.route?.replace(/[?#].*$/, '').replace(/\/+$/, '');
  for (const passage of passages) {
    for (const entry of passage.pages ?? []) {
      const listed = entry.toLowerCase();
      if (listed.startsWith('/')) {
        if (route && listed.replace(/\/+$/, '') === route) exact.set(passage.id, 1);
        else if (route && routeMatches(listed, route)) patterns.set(passage.id, 1);
      } else if (listed.includes('.')) {
        if (page.name === listed) exact.set(passage.id, 1);
      } else if (page.module === listed && !exact.has(passage.id)) {
        patterns.set(passage.id, Math.max(patterns.get(passage.id) ?? 0, moduleShare));
      }
    }
  }
  const affinities = new Map(exact);
  for (const [id, value] of patterns)
    if (exact.size === 0 || value < 1) affinities.set(id, Math.max(affinities.get(id) ?? 0, value));
  return affinities;
}

/**
 * How much a passage belongs to any one of its pages: 1 over the number of routes it lists (at
 * least one). A passage listed on one page is that page's own; one listed on many is about
 * something that shows on all of them (a password is reset from the login page and from settings).
 */
export function pageSpecificity(passage: Passage): number {
  return 1 / Math.max(1, (passage.pages ?? []).filter((entry) => entry.startsWith('/')).length);
}

/**
 * The page's own passage: of those on the page (pageAffinities), the closest, then the one listed
 * on fewest pages (pageSpecificity), then the first written. For a message with no words to search
 * ("what are these for", "cant get in"): the page is all it says.
 */
export function pageOwnPassage(passages: Passage[], page: PageRef, moduleShare: number): Passage | undefined {
  const affinities = pageAffinities(passages, page, moduleShare);
  const rank = (passage: Passage) => (affinities.get(passage.id) ?? 0) * (1 + pageSpecificity(passage));
  let own: Passage | undefined;
  for (const passage of passages) if (affinities.has(passage.id) && (!own || rank(passage) > rank(own))) own = passage;
  return own;
}
