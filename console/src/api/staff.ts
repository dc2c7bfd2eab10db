// Lists the pickers need (staff members, tags, saved replies), each read once per page load.
import type { components } from '../../generated/api';
import { api, currentCredential } from './client';
import type { SavedReply, StaffMember } from './pending';

let staffPromise: Promise<StaffMember[]> | undefined;
let tagsPromise: Promise<components['schemas']['Tag'][]> | undefined;

/** The staff members; without the service's list, only the signed-in one. */
export function staffMembers(): Promise<StaffMember[]> {
  staffPromise ??= api.GET('/api/admin/staff').then((answer) => {
    if (answer.response.ok && answer.data) return (answer.data as { data: StaffMember[] }).data;
    const me = currentCredential()?.user;
    return me
      ? [{ id: me.id, first_name: me.first_name, last_name: me.last_name, email: me.email, role: me.role }]
      : [];
  });
  return staffPromise;
}

/** Every tag; empty without the service's list. */
export function allTags(): Promise<components['schemas']['Tag'][]> {
  tagsPromise ??= api
    .GET('/api/admin/tags')
    .then((answer) =>
      answer.response.ok && answer.data ? (answer.data as { data: components['schemas']['Tag'][] }).data : [],
    );
  return tagsPromise;
}

export async function savedReplies(lang: string): Promise<SavedReply[]> {
  const answer = await api.GET('/api/admin/saved-replies', { params: { query: { lang } } });
  return answer.response.ok && answer.data ? answer.data.data : [];
}

/** Fills a saved reply's placeholders ({{first_name}} …) with the ticket's values, as text. */
export function fillPlaceholders(body: string, values: Record<string, string>): string {
  return body.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}
