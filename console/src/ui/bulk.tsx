// Bulk actions on the selected tickets: assign, status, priority, tag, close. One request to the
// service's bulk endpoint; a service without it gets the assignment, status and close as one
// update per ticket (the changes the single-ticket update accepts).
import { useState } from 'preact/hooks';
import type { components } from '../../generated/api';
import { api, ApiError, call } from '../api/client';
import type { BulkBody, BulkResult, StaffMember } from '../api/pending';
import { updateTicket } from '../api/tickets';
import { label, t } from '../i18n';
import { ErrorLine, personName } from './parts';

type Action = BulkBody['action'];
const ACTIONS: Action[] = ['assign', 'status', 'priority', 'tag', 'close'];

async function perTicket(body: BulkBody): Promise<BulkResult> {
  const result: BulkResult = { updated: [], failed: [] };
  for (const id of body.ids) {
    const change =
      body.action === 'close'
        ? { status: 'closed' as const }
        : body.action === 'status'
          ? { status: body.value as 'open' | 'in-progress' | 'closed' }
          : body.action === 'assign'
            ? { assignee_id: body.value === null ? null : Number(body.value) }
            : null;
    if (!change) throw new ApiError(404, t('error.not_available'));
    try {
      await updateTicket(id, change);
      result.updated.push(id);
    } catch (error) {
      result.failed.push({ id, message: (error as Error).message });
    }
  }
  return result;
}

export async function runBulk(body: BulkBody): Promise<BulkResult> {
  const answer = await api.POST('/api/admin/tickets/bulk', { body });
  // 404 or 405: a server without the bulk endpoint (the path then matches a ticket's).
  if (answer.response.status === 404 || answer.response.status === 405) return perTicket(body);
  return (await call(Promise.resolve(answer))).data;
}

export function BulkBar(props: {
  ids: number[];
  staff: StaffMember[];
  tags: components['schemas']['Tag'][];
  onDone: () => void;
}) {
  const [action, setAction] = useState<Action>('assign');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState('');
  const [error, setError] = useState<unknown>(null);

  const options: { value: string; text: string }[] =
    action === 'assign'
      ? [
          { value: 'none', text: t('person.unassigned') },
          ...props.staff.map((s) => ({ value: String(s.id), text: personName(s) })),
        ]
      : action === 'status'
        ? ['open', 'in-progress', 'closed'].map((s) => ({ value: s, text: label('status', s) }))
        : action === 'priority'
          ? ['low', 'normal', 'high'].map((p) => ({ value: p, text: label('priority', p) }))
          : action === 'tag'
            ? props.tags.map((tag) => ({ value: String(tag.id), text: tag.name }))
            : [];

  const apply = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const chosen = value || options[0]?.value || '';
    const body: BulkBody = { ids: props.ids, action };
    if (action === 'assign') body.value = chosen === 'none' ? null : Number(chosen);
    else if (action === 'tag') body.value = Number(chosen);
    else if (action !== 'close') body.value = chosen;
    try {
      const result = await runBulk(body);
      setOutcome(t('bulk.result', { updated: result.updated.length, failed: result.failed.length }));
      props.onDone();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="bulk" aria-label={t('bulk.label')} onSubmit={(e) => void apply(e)}>
      <strong>{t('bulk.selected', { n: props.ids.length })}</strong>
      <label>
        {t('bulk.action')}
        <select
          value={action}
          onChange={(e) => {
            setAction(e.currentTarget.value as Action);
            setValue('');
          }}
        >
          {ACTIONS.map((a) => (
            <option value={a}>{t(`bulk.${a}`)}</option>
          ))}
        </select>
      </label>
      {options.length > 0 && (
        <label>
          {t('bulk.value')}
          <select value={value || options[0]?.value} onChange={(e) => setValue(e.currentTarget.value)}>
            {options.map((o) => (
              <option value={o.value}>{o.text}</option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" disabled={busy}>
        {t('bulk.apply')}
      </button>
      <span role="status">{outcome}</span>
      {error !== null && <ErrorLine error={error} missing />}
    </form>
  );
}
