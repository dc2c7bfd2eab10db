// The queue: the five views with their counts, filters, the SLA-ordered list with selection and
// bulk actions, the CSV export of the filtered list, and live updates from the staff stream.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../generated/api';
import { subscribeLive } from '../api/live';
import type { StaffMember, ViewName } from '../api/pending';
import { allTags, staffMembers } from '../api/staff';
import { listQueue, type QueueQuery, type Summary, VIEWS, viewCounts } from '../api/tickets';
import { formatDateTime, formatNumber, label, t, useLocale } from '../i18n';
import { BulkBar } from '../ui/bulk';
import { exportCsv } from '../ui/export';
import { ErrorLine, Loading, PageTitle, Pager, personName } from '../ui/parts';
import { Link, locationStore, navigate } from '../ui/router';
import { useStore } from '../ui/store';

const STATUSES = ['open', 'in-progress', 'closed'] as const;
const PRIORITIES = ['low', 'normal', 'high'] as const;
const PER_PAGE = 25;

/** The queue's state in the URL: view and filters, parsed leniently (junk is ignored). */
export function queueQueryOf(params: URLSearchParams): QueueQuery & { page: number } {
  const view = params.get('view');
  const positive = (name: string) => {
    const n = Number(params.get(name));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const status = params.get('status');
  const priority = params.get('priority');
  return {
    view: VIEWS.includes(view as ViewName) ? (view as ViewName) : undefined,
    status: STATUSES.includes(status as never) ? (status as QueueQuery['status']) : undefined,
    priority: PRIORITIES.includes(priority as never) ? (priority as QueueQuery['priority']) : undefined,
    category: params.get('category') || undefined,
    tag: positive('tag'),
    assignee_id: positive('assignee_id'),
    q: params.get('q') || undefined,
    page: positive('page') ?? 1,
  };
}

export function searchOf(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '' && !(key === 'page' && value === 1)) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function SlaBadge({ row }: { row: Summary }) {
  const status = row.sla_status;
  const due = row.sla.next_due_at;
  return (
    <span class={`badge sla-${status}`}>
      {label('sla', status)}
      {due ? <span class="muted"> · {t('sla.due', { time: formatDateTime(due) })}</span> : null}
    </span>
  );
}

function Filters(props: { query: QueueQuery; staff: StaffMember[]; tags: components['schemas']['Tag'][] }) {
  const { query, staff, tags } = props;
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const value = (name: string) => String(form.get(name) ?? '') || undefined;
    navigate(
      `/${searchOf({
        view: query.view,
        status: value('status'),
        priority: value('priority'),
        category: value('category'),
        tag: value('tag'),
        assignee_id: value('assignee_id'),
        q: value('q'),
      })}`,
    );
  };
  return (
    <form class="filters" aria-label={t('queue.filters')} onSubmit={submit}>
      <label>
        {t('filter.status')}
        <select name="status" value={query.status ?? ''}>
          <option value="">{t('filter.any')}</option>
          {STATUSES.map((s) => (
            <option value={s}>{label('status', s)}</option>
          ))}
        </select>
      </label>
      <label>
        {t('filter.priority')}
        <select name="priority" value={query.priority ?? ''}>
          <option value="">{t('filter.any')}</option>
          {PRIORITIES.map((p) => (
            <option value={p}>{label('priority', p)}</option>
          ))}
        </select>
      </label>
      <label>
        {t('filter.category')}
        <input name="category" value={query.category ?? ''} maxLength={255} />
      </label>
      <label>
        {t('filter.tag')}
        <select name="tag" value={query.tag ? String(query.tag) : ''}>
          <option value="">{t('filter.any')}</option>
          {tags.map((tag) => (
            <option value={String(tag.id)}>{tag.name}</option>
          ))}
        </select>
      </label>
      <label>
        {t('filter.assignee')}
        <select name="assignee_id" value={query.assignee_id ? String(query.assignee_id) : ''}>
          <option value="">{t('filter.any')}</option>
          {staff.map((s) => (
            <option value={String(s.id)}>{personName(s)}</option>
          ))}
        </select>
      </label>
      <label>
        {t('filter.text')}
        <input name="q" type="search" value={query.q ?? ''} maxLength={200} />
      </label>
      <button type="submit">{t('filter.apply')}</button>
      <button type="button" onClick={() => navigate(`/${searchOf({ view: query.view })}`)}>
        {t('filter.reset')}
      </button>
    </form>
  );
}

export function QueuePage() {
  useLocale();
  const here = useStore(locationStore);
  const query = queueQueryOf(here.query);
  const key = here.query.toString();
  const [counts, setCounts] = useState<Record<ViewName, number | null> | null>(null);
  const [list, setList] = useState<Awaited<ReturnType<typeof listQueue>> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [staff, setStaff] = useState<StaffMember[]>([]);
  const [tags, setTags] = useState<components['schemas']['Tag'][]>([]);
  const [announcement, setAnnouncement] = useState('');
  const [exportProblem, setExportProblem] = useState<string | null>(null);
  const refreshTimer = useRef<ReturnType<typeof setTimeout>>();

  const load = useCallback(async () => {
    // The list shows as soon as it arrives; the counts follow on their own.
    const counting = viewCounts().then(setCounts, () => undefined);
    try {
      setList(await listQueue({ ...query, per_page: PER_PAGE }));
      setError(null);
    } catch (failure) {
      setError(failure);
    }
    await counting;
  }, [key]);

  useEffect(() => {
    void load();
    setSelected(new Set());
  }, [load]);

  useEffect(() => {
    void staffMembers().then(setStaff);
    void allTags().then(setTags);
  }, []);

  useEffect(
    () =>
      subscribeLive((event) => {
        if (event.type === 'presence') return;
        // A burst of events (a bulk change) makes one reload.
        clearTimeout(refreshTimer.current);
        refreshTimer.current = setTimeout(() => {
          void load().then(() => setAnnouncement(`${t('queue.updated')} ${new Date().toISOString()}`));
        }, 150);
      }),
    [load],
  );

  // j / k move between the rows' links, as in the ticket page's shortcuts.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement;
      if (target.closest('input, select, textarea')) return;
      if (event.key !== 'j' && event.key !== 'k') return;
      const links = [...document.querySelectorAll<HTMLAnchorElement>('.queue-table a.ticket-link')];
      if (!links.length) return;
      const at = links.indexOf(document.activeElement as HTMLAnchorElement);
      const next = event.key === 'j' ? Math.min(at + 1, links.length - 1) : Math.max(at - 1, 0);
      links[next]?.focus();
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const rows = list?.rows ?? [];
  const allChosen = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const { page: _page, ...filters } = query;

  return (
    <section>
      <PageTitle text={t('queue.title')} />
      <nav aria-label={t('queue.views')} class="views">
        <ul>
          {VIEWS.map((view) => (
            <li key={view}>
              <Link href={`/${searchOf({ view })}`} aria-current={query.view === view ? 'page' : undefined}>
                {t(`view.${view}`)}{' '}
                <span class="count">{counts?.[view] == null ? '' : formatNumber(counts[view] ?? 0)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Filters query={query} staff={staff} tags={tags} />
      <div class="toolbar">
        <span role="status">{list ? t('queue.count', { n: list.meta.total }) : ''}</span>
        <button type="button" onClick={() => void exportCsv(filters).then(setExportProblem)}>
          {t('queue.export')}
        </button>
      </div>
      {exportProblem && (
        <p class="error" role="alert">
          {exportProblem}
        </p>
      )}
      <p class="visually-hidden" aria-live="polite">
        {announcement ? t('queue.updated') : ''}
      </p>
      {error !== null && <ErrorLine error={error} />}
      {selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          staff={staff}
          tags={tags}
          onDone={() => void load().then(() => setSelected(new Set()))}
        />
      )}
      {!list && error === null ? (
        <Loading />
      ) : rows.length === 0 ? (
        <p>{t('queue.empty')}</p>
      ) : (
        <table class="queue-table">
          <caption class="visually-hidden">{t('queue.results')}</caption>
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label={t('queue.select_all')}
                  checked={allChosen}
                  onChange={() => setSelected(allChosen ? new Set() : new Set(rows.map((r) => r.id)))}
                />
              </th>
              <th scope="col">{t('col.ticket')}</th>
              <th scope="col">{t('col.member')}</th>
              <th scope="col">{t('col.status')}</th>
              <th scope="col">{t('col.priority')}</th>
              <th scope="col">{t('col.assignee')}</th>
              <th scope="col">{t('col.tags')}</th>
              <th scope="col">{t('col.sla')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} class={selected.has(row.id) ? 'chosen' : undefined}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('queue.select', { code: row.tracking_code })}
                    checked={selected.has(row.id)}
                    onChange={() => toggle(row.id)}
                  />
                </td>
                <td>
                  <Link
                    href={`/tickets/${row.id}${here.query.size ? `?from=${encodeURIComponent(key)}` : ''}`}
                    class="ticket-link"
                  >
                    <bdi>{row.subject}</bdi>
                  </Link>
                  <div class="muted code">
                    <bdi>{row.tracking_code}</bdi> · {formatDateTime(row.last_activity_at ?? row.created_at)}
                    {row.category ? (
                      <>
                        {' · '}
                        <bdi>{row.category}</bdi>
                      </>
                    ) : null}
                  </div>
                </td>
                <td>
                  <bdi>{personName(row.user)}</bdi>
                  <div class="muted">
                    <bdi>{row.user?.email ?? ''}</bdi>
                  </div>
                </td>
                <td>{label('status', row.status)}</td>
                <td>
                  <span class={`badge priority-${row.priority}`}>{label('priority', row.priority)}</span>
                </td>
                <td>
                  <bdi>{row.assignee ? personName(row.assignee) : t('person.unassigned')}</bdi>
                </td>
                <td>
                  {row.tags.map((tag) => (
                    <span class="tag" key={tag.id}>
                      <bdi>{tag.name}</bdi>
                    </span>
                  ))}
                </td>
                <td>
                  <SlaBadge row={row} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list && (
        <Pager
          page={list.meta.current_page}
          pages={list.meta.last_page}
          onPage={(page) => navigate(`/${searchOf({ ...filters, page })}`)}
        />
      )}
    </section>
  );
}
