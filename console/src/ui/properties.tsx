// The ticket's properties staff change: assignee (to me, to another, nobody), status, priority,
// category and tags. Assignment acts at once; the rest is saved with one button.
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../generated/api';
import { currentCredential } from '../api/client';
import type { StaffMember } from '../api/pending';
import type { TicketChange, TicketView } from '../api/tickets';
import { label, t } from '../i18n';
import { ErrorLine, personName } from './parts';

export function Properties(props: {
  view: TicketView;
  staff: StaffMember[];
  tags: components['schemas']['Tag'][];
  onChange: (change: TicketChange) => Promise<void>;
}) {
  const { detail } = props.view;
  const [status, setStatus] = useState<string>(detail.status);
  const [priority, setPriority] = useState<string>(detail.priority);
  const [category, setCategory] = useState(detail.category ?? '');
  const [tagIds, setTagIds] = useState<number[]>(detail.tags.map((tag) => tag.id));
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    setStatus(detail.status);
    setPriority(detail.priority);
    setCategory(detail.category ?? '');
    setTagIds(detail.tags.map((tag) => tag.id));
  }, [detail]);

  const act = async (change: TicketChange) => {
    setError(null);
    setSaved('');
    try {
      await props.onChange(change);
      setSaved(t('ticket.saved'));
    } catch (failure) {
      setError(failure);
    }
  };
  const me = currentCredential()?.user.id;
  // The ticket's own tags are offered even when the tag list is not available.
  const tagChoices = [...props.tags, ...detail.tags.filter((tag) => !props.tags.some((x) => x.id === tag.id))];
  const staffChoices = [
    ...props.staff,
    ...(detail.assignee?.id && !props.staff.some((s) => s.id === detail.assignee?.id)
      ? [{ ...detail.assignee, id: detail.assignee.id, email: detail.assignee.email ?? '' } as StaffMember]
      : []),
  ];

  return (
    <section aria-labelledby="properties-heading" class="panel">
      <h2 id="properties-heading">{t('ticket.properties')}</h2>
      <div class="field">
        <label for="assignee">{t('filter.assignee')}</label>
        <select
          id="assignee"
          value={detail.assignee?.id ? String(detail.assignee.id) : ''}
          onChange={(e) => void act({ assignee_id: e.currentTarget.value ? Number(e.currentTarget.value) : null })}
        >
          <option value="">{t('person.unassigned')}</option>
          {staffChoices.map((s) => (
            <option value={String(s.id)}>{personName(s)}</option>
          ))}
        </select>
        <div class="buttons">
          <button
            type="button"
            disabled={!me || detail.assignee?.id === me}
            onClick={() => void act({ assignee_id: me! })}
          >
            {t('ticket.assign_me')}
          </button>
          <button type="button" disabled={!detail.assignee} onClick={() => void act({ assignee_id: null })}>
            {t('ticket.unassign')}
          </button>
        </div>
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act({
            status: status as TicketChange['status'],
            priority: priority as TicketChange['priority'],
            category: category.trim() || null,
            tags: tagIds,
          });
        }}
      >
        <div class="field">
          <label for="status">{t('filter.status')}</label>
          <select id="status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            {['open', 'in-progress', 'closed'].map((s) => (
              <option value={s}>{label('status', s)}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="priority">{t('filter.priority')}</label>
          <select id="priority" value={priority} onChange={(e) => setPriority(e.currentTarget.value)}>
            {['low', 'normal', 'high'].map((p) => (
              <option value={p}>{label('priority', p)}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="category">{t('filter.category')}</label>
          <input id="category" value={category} maxLength={255} onInput={(e) => setCategory(e.currentTarget.value)} />
        </div>
        {tagChoices.length > 0 && (
          <fieldset class="field tags">
            <legend>{t('ticket.tags')}</legend>
            {tagChoices.map((tag) => (
              <label key={tag.id}>
                <input
                  type="checkbox"
                  checked={tagIds.includes(tag.id)}
                  onChange={(e) =>
                    setTagIds(e.currentTarget.checked ? [...tagIds, tag.id] : tagIds.filter((id) => id !== tag.id))
                  }
                />
                <bdi>{tag.name}</bdi>
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit">{t('ticket.save')}</button>
        <span role="status">{saved}</span>
      </form>
      {error !== null && <ErrorLine error={error} />}
    </section>
  );
}
