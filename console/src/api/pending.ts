// The staff endpoints agreed with the back-end (docs: the console's API design) that the service's
// OpenAPI document does not describe yet, written in the generated file's form. client.ts joins
// them to the generated paths only where the document has no such path, so each one switches to
// the generated type as soon as the service documents it (and a difference then fails the type
// check where the console relies on it). Delete an entry once its path is in the document.
type Ok<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type Failure = { headers: { [name: string]: unknown }; content: { 'application/json': { message: string } } };
type Path<P> = [P] extends [never] ? { path?: never } : { path: P };
type Params<Q, P> = ([Q] extends [never] ? { query?: never } : { query?: Q }) &
  Path<P> & { header?: never; cookie?: never };
type Get<R, Q = never, P = never> = {
  parameters: Params<Q, P>;
  requestBody?: never;
  responses: { 200: Ok<R>; 401: Failure; 403: Failure; 404: Failure; 422: Failure };
};
type Methods = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};
type Item<M> = Omit<Methods, keyof M> & M;
type Answer<T> = { success: boolean; data: T };

export type Role = 'member' | 'support' | 'admin';
export type ViewName = 'mine' | 'unassigned' | 'open' | 'at_risk' | 'closed';
export interface SessionUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  locale: 'en' | 'fa';
}
export interface ConsoleSession {
  user: SessionUser;
  csrf_token: string;
  expires_at: string;
  idle_expires_at: string;
}
export interface StaffMember {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  role: Role;
}
export interface Viewer {
  id: number;
  first_name: string;
  last_name: string;
  state: 'viewing' | 'replying';
}
export interface SavedReply {
  id: number;
  title: string;
  body: string;
  lang: 'en' | 'fa';
}
export interface BulkBody {
  ids: number[];
  action: 'assign' | 'status' | 'priority' | 'tag' | 'close';
  value?: string | number | null;
}
export interface BulkResult {
  updated: number[];
  failed: { id: number; message: string }[];
}
/** Met and breached counts of one target (first response or resolution). */
export interface Compliance {
  met: number;
  breached: number;
}
export interface SlaReport {
  by_priority: { priority: string; first_response: Compliance; resolution: Compliance }[];
  by_week: { week: string; first_response: Compliance; resolution: Compliance }[];
}
/** Minutes in the ticket's SLA clock; null when no ticket was measured. */
export interface Durations {
  median: number | null;
  p90: number | null;
  count: number;
}
export interface TimesReport {
  overall: { first_response: Durations; resolution: Durations };
  by_priority: { priority: string; first_response: Durations; resolution: Durations }[];
}
export interface VolumeReport {
  by: 'day' | 'category';
  data: { key: string | null; count: number }[];
}
export interface Gap {
  question: string;
  count: number;
  last_asked_at: string;
  lang?: string;
}
export type ReportRange = { from?: string; to?: string };

export type PendingPaths = {
  '/api/admin/assistant/gaps': Item<{ get: Get<Answer<Gap[]>> }>;
};
