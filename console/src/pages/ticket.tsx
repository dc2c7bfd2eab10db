// One ticket: subject, the member and their other tickets, the SLA clock, the escalated assistant
// conversation, the whole story, the properties staff change, the composer, who else is here, and
// keyboard shortcuts for the frequent actions.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../generated/api';
import { api, currentCredential } from '../api/client';
import { subscribeLive } from '../api/live';
import type { StaffMember, Viewer } from '../api/pending';
import { allTags, staffMembers } from '../api/staff';
import { loadTicket, type TicketChange, type TicketView, updateTicket } from '../api/tickets';
import { formatDateTime, label, t, useLocale } from '../i18n';
import { Composer, type Mode } from '../ui/composer';
import { ErrorLine, Loading, PageTitle, personName } from '../ui/parts';
import { Properties } from '../ui/properties';
import { Link, locationStore, navigate } from '../ui/router';
import { useStore } from '../ui/store';
import { Timeline } from '../ui/timeline';

const PRESENCE_EVERY_MS = 15_000;

function usePresence(id: number, replying: boolean): Viewer[] {
  const [viewers, setViewers] = useState<Viewer[]>([]);
  const me = currentCredential()?.user.id;
  useEffect(() => {
    let stopped = false;
    const beat = async (state: 'viewing' | 'replying' | 'left') => {
      const answer = await api
        .PUT('/api/admin/tickets/{id}/presence', { params: { path: { id } }, body: { state } })
        .catch(() => null);
      if (answer?.response.status === 404 || answer?.response.status === 405) stopped = true;
      if (answer?.response.ok && answer.data) setViewers(answer.data.data.viewers);
    };
    void beat(replying ? 'replying' : 'viewing');
    const timer = setInterval(() => {
      if (!stopped) void beat(replying ? 'replying' : 'viewing');
    }, PRESENCE_EVERY_MS);
    const unsubscribe = subscribeLive((event) => {
      if (event.type === 'presence' && event.data.ticket_id === id) setViewers(event.data.viewers);
    });
    return () => {
      clearInterval(timer);
      unsubscribe();
      if (!stopped) void beat('left');
    };
  }, [id, replying]);
  return viewers.filter((v) => v.id !== me);
}

function Presence({ viewers }: { viewers: Viewer[] }) {
  if (!viewers.length) return null;
  const names = (state: Viewer['state']) =>
    viewers
      .filter((v) => v.state === state)
      .map((v) => personName(v))
      .join('، ');
  const replying = names('replying');
  const viewing = names('viewing');
  return (
    <p class="presence" role="status">
      {replying && t('presence.replying', { names: replying })} {viewing && t('presence.viewing', { names: viewing })}
    </p>
  );
}

function Sla({ view }: { view: TicketView }) {
  const sla = view.detail.sla;
  const step = (name: 'ticket.first_response' | 'ticket.resolution', due: string, done: string | null) => (
    <>
      <dt>{t(name)}</dt>
      <dd>
        {done ? t('ticket.done_at', { time: formatDateTime(done) }) : t('ticket.due_at', { time: formatDateTime(due) })}
      </dd>
    </>
  );
  return (
    <section aria-labelledby="sla-heading" class="panel">
      <h2 id="sla-heading">{t('ticket.sla')}</h2>
      <p>
        <span class={`badge sla-${view.detail.sla_status}`}>{label('sla', view.detail.sla_status)}</span>
      </p>
      <dl>
        {step('ticket.first_response', sla.first_response_due_at, sla.first_response_at)}
        {step('ticket.resolution', sla.resolution_due_at, sla.resolved_at)}
      </dl>
      <p class="muted">{t('ticket.clock', { clock: label('clock', sla.clock), zone: sla.time_zone })}</p>
    </section>
  );
}

function Member({ view }: { view: TicketView }) {
  const member = view.member;
  return (
    <section aria-labelledby="member-heading" class="panel">
      <h2 id="member-heading">{t('ticket.member')}</h2>
      <p>
        <bdi>{personName(member)}</bdi>
        <br />
        <bdi class="muted">{member?.email ?? view.detail.user?.email ?? ''}</bdi>
      </p>
      {member?.other_tickets && (
        <>
          <h3>{t('ticket.other_tickets')}</h3>
          {member.other_tickets.length === 0 ? (
            <p class="muted">{t('ticket.no_other_tickets')}</p>
          ) : (
            <ul>
              {member.other_tickets.map((o) => (
                <li key={o.id}>
                  <Link href={`/tickets/${o.id}`}>
                    <bdi>{o.subject}</bdi>
                  </Link>{' '}
                  <span class="muted">
                    <bdi>{o.tracking_code}</bdi> · {label('status', o.status)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function Conversation({ view }: { view: TicketView }) {
  const conversation = view.conversation;
  if (!conversation) return null;
  return (
    <section aria-labelledby="conversation-heading" class="panel">
      <h2 id="conversation-heading">{t('ticket.conversation')}</h2>
      {conversation.title && (
        <p>
          <bdi>{conversation.title}</bdi>
        </p>
      )}
      <ol class="transcript">
        {conversation.messages.map((m, i) => (
          <li key={i} class={`said-${m.role}`}>
            <strong>{label('role', m.role)}</strong>{' '}
            <time class="muted" dateTime={m.created_at}>
              {formatDateTime(m.created_at)}
            </time>
            <p class="body" dir="auto">
              {m.content}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Shortcuts() {
  return (
    <details class="shortcuts">
      <summary>{t('shortcuts.title')}</summary>
      <ul>
        {(['reply', 'note', 'assign', 'close', 'send', 'queue'] as const).map((k) => (
          <li key={k}>{t(`shortcuts.${k}`)}</li>
        ))}
      </ul>
    </details>
  );
}

export function TicketPage({ id }: { id: number }) {
  useLocale();
  const here = useStore(locationStore);
  const [view, setView] = useState<TicketView | null>(null);
  const [loadedVersion, setLoadedVersion] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [mode, setMode] = useState<Mode>('reply');
  const [typing, setTyping] = useState(false);
  const [staff, setStaff] = useState<StaffMember[]>([]);
  const [tags, setTags] = useState<components['schemas']['Tag'][]>([]);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const viewers = usePresence(id, typing);
  const backHref = `/${here.query.get('from') ? `?${here.query.get('from')}` : ''}`;

  const reload = useCallback(async () => {
    try {
      const next = await loadTicket(id);
      setView(next);
      setLoadedVersion(next.version);
      setError(null);
    } catch (failure) {
      setError(failure);
    }
  }, [id]);

  const change = useCallback(
    async (body: TicketChange) => {
      const next = await updateTicket(id, body);
      setView(next);
      setLoadedVersion(next.version);
    },
    [id],
  );

  useEffect(() => {
    setView(null);
    void reload();
  }, [reload]);
  useEffect(() => {
    void staffMembers().then(setStaff);
    void allTags().then(setTags);
  }, []);
  useEffect(
    () =>
      subscribeLive((event) => {
        const about =
          event.type === 'comment_added'
            ? event.data.ticket_id
            : event.type === 'ticket_updated'
              ? event.data.id
              : null;
        // The story is reloaded; the version the reply is checked against stays the one read
        // before, so a message that arrives while writing still gets the warning.
        if (about === id) void loadTicket(id).then(setView);
      }),
    [id],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if ((event.target as HTMLElement).closest('input, select, textarea, button, summary')) return;
      const me = currentCredential()?.user.id;
      const actions: Record<string, () => void> = {
        r: () => {
          setMode('reply');
          textarea.current?.focus();
        },
        n: () => {
          setMode('note');
          textarea.current?.focus();
        },
        a: () => void (me && change({ assignee_id: me }).catch(setError)),
        c: () => void change({ status: 'closed' }).catch(setError),
        g: () => navigate(backHref),
      };
      const action = actions[event.key];
      if (action) {
        event.preventDefault();
        action();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [change, backHref]);

  if (!view) return error ? <ErrorLine error={error} /> : <Loading />;
  const detail = view.detail;
  return (
    <article class="ticket">
      <p>
        <Link href={backHref}>{t('ticket.back')}</Link>
      </p>
      <PageTitle text={detail.subject} />
      <p class="muted">
        <bdi>{detail.tracking_code}</bdi> · {label('status', detail.status)} · {label('priority', detail.priority)} ·{' '}
        {formatDateTime(detail.created_at)}
      </p>
      <Presence viewers={viewers} />
      {error !== null && <ErrorLine error={error} />}
      <div class="columns">
        <div class="story">
          <h2>{t('ticket.story')}</h2>
          <Timeline
            ticketId={detail.id}
            entries={view.timeline}
            names={new Map(staff.map((s) => [String(s.id), personName(s)]))}
          />
          <Composer
            view={view}
            loadedVersion={loadedVersion}
            mode={mode}
            onMode={setMode}
            onSent={() => void reload()}
            onTyping={setTyping}
            textareaRef={textarea}
          />
          <Shortcuts />
        </div>
        <aside>
          <Properties view={view} staff={staff} tags={tags} onChange={change} />
          <Sla view={view} />
          <Member view={view} />
          <Conversation view={view} />
        </aside>
      </div>
    </article>
  );
}
