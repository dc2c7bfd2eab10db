// Writing on a ticket: a reply to the member or an internal note, with saved replies (their
// placeholders filled in from the ticket) and files. Before sending a reply it checks that no new
// message arrived since the page loaded the ticket (the service's version; a 409 from the service
// says the same) and asks for a second send when one did.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, authorizedFetch, call, currentCredential } from '../api/client';
import type { SavedReply } from '../api/pending';
import { fillPlaceholders, savedReplies } from '../api/staff';
import { loadTicket, type TicketView } from '../api/tickets';
import { t, useLocale } from '../i18n';
import { ErrorLine, personName } from './parts';

export type Mode = 'reply' | 'note';

async function send(ticketId: number, mode: Mode, message: string, files: File[], version: string | null) {
  const path = mode === 'reply' ? 'comments' : 'notes';
  if (files.length) {
    const form = new FormData();
    form.set('message', message);
    if (version) form.set('if_version', version);
    for (const file of files) form.append('attachments[]', file);
    await authorizedFetch(`/api/admin/tickets/${ticketId}/${path}`, { method: 'POST', body: form });
    return;
  }
  const params = { path: { id: ticketId } };
  if (mode === 'note')
    await call(
      api.POST('/api/admin/tickets/{id}/notes', { params: { path: { id: String(ticketId) } }, body: { message } }),
    );
  else {
    const body = version ? ({ message, if_version: version } as { message: string }) : { message };
    await call(api.POST('/api/admin/tickets/{id}/comments', { params, body }));
  }
}

export function Composer(props: {
  view: TicketView;
  loadedVersion: string;
  mode: Mode;
  onMode: (mode: Mode) => void;
  onSent: () => void;
  onTyping: (typing: boolean) => void;
  textareaRef: { current: HTMLTextAreaElement | null };
}) {
  const locale = useLocale();
  const { view, mode } = props;
  const id = view.detail.id;
  const [message, setMessage] = useState('');
  const [replies, setReplies] = useState<SavedReply[]>([]);
  const [changed, setChanged] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const [error, setError] = useState<unknown>(null);
  const files = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void savedReplies(locale).then(setReplies);
  }, [locale]);

  const useSaved = (replyId: string) => {
    const chosen = replies.find((r) => String(r.id) === replyId);
    if (!chosen) return;
    const me = currentCredential()?.user;
    const member = view.member;
    setMessage(
      fillPlaceholders(chosen.body, {
        first_name: member?.first_name ?? '',
        last_name: member?.last_name ?? '',
        tracking_code: view.detail.tracking_code,
        subject: view.detail.subject,
        agent_name: personName(me),
      }),
    );
  };

  const submit = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    setDone('');
    try {
      // A reply the member will read: first make sure nothing new came in since the page loaded.
      if (mode === 'reply' && !changed) {
        const latest = await loadTicket(id);
        if (latest.version !== props.loadedVersion) {
          setChanged(true);
          props.onSent();
          return;
        }
      }
      const chosen = [...(files.current?.files ?? [])];
      await send(id, mode, message, chosen, mode === 'reply' && !changed ? props.loadedVersion : null);
      setMessage('');
      if (files.current) files.current.value = '';
      setChanged(false);
      setDone(t('composer.sent'));
      props.onSent();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        setChanged(true);
        props.onSent();
      } else setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit(event);
  };

  return (
    <form class={`composer composer-${mode}`} onSubmit={(e) => void submit(e)}>
      <fieldset class="modes">
        <legend>{t('composer.mode')}</legend>
        {(['reply', 'note'] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => props.onMode(m)} />
            {t(m === 'reply' ? 'composer.reply' : 'composer.note')}
          </label>
        ))}
      </fieldset>
      {replies.length > 0 && (
        <label>
          {t('composer.saved_reply')}
          <select value="" onChange={(e) => useSaved(e.currentTarget.value)}>
            <option value="">{t('composer.saved_none')}</option>
            {replies.map((r) => (
              <option value={String(r.id)}>{r.title}</option>
            ))}
          </select>
        </label>
      )}
      <label for="composer-message">{t('composer.message')}</label>
      <textarea
        id="composer-message"
        ref={(el) => {
          props.textareaRef.current = el;
        }}
        rows={6}
        dir="auto"
        required
        minLength={5}
        maxLength={10000}
        value={message}
        onInput={(e) => {
          setMessage(e.currentTarget.value);
          props.onTyping(e.currentTarget.value.length > 0);
        }}
        onKeyDown={onKeyDown}
      />
      <label>
        {t('composer.files')}
        <input ref={files} type="file" multiple />
      </label>
      {changed && (
        <p class="warning" role="alert">
          {t('composer.changed')}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {changed ? t('composer.send_anyway') : t(mode === 'reply' ? 'composer.send_reply' : 'composer.add_note')}
      </button>
      <span role="status">{done}</span>
      {error !== null && <ErrorLine error={error} missing={mode === 'note'} />}
    </form>
  );
}
