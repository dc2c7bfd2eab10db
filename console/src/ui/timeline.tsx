// The ticket's story in order (member messages, staff replies, internal notes, activity) and its
// attachments. Everything here is the member's or staff's text and is rendered as text nodes;
// files are fetched with the credential and shown only from blob URLs: images of the checked
// types as previews, everything else as a download.
import { useEffect, useState } from 'preact/hooks';
import { authorizedFetch } from '../api/client';
import { type Attachment, attachmentUrl, PREVIEWABLE, type TimelineEntry } from '../api/tickets';
import { formatDateTime, formatNumber, label, t } from '../i18n';
import { personName } from './parts';

async function download(ticketId: number, file: Attachment): Promise<void> {
  const response = await authorizedFetch(attachmentUrl(ticketId, file.id));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  // The name is only the suggested file name: the browser never opens it as a page.
  link.download = file.file_name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function Preview({ ticketId, file }: { ticketId: number; file: Attachment }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    void authorizedFetch(attachmentUrl(ticketId, file.id))
      .then(async (response) => {
        const type = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
        // Shown only when the service says it is one of the checked image types.
        if (!PREVIEWABLE.has(type) || cancelled) return;
        url = URL.createObjectURL(new Blob([await response.arrayBuffer()], { type }));
        setSrc(url);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [ticketId, file.id]);
  return src ? <img class="preview" src={src} alt={t('ticket.preview', { name: file.file_name })} /> : null;
}

export function Attachments({ ticketId, files }: { ticketId: number; files: Attachment[] }) {
  const [error, setError] = useState('');
  if (!files.length) return null;
  return (
    <div class="attachments">
      <ul>
        {files.map((file) => (
          <li key={file.id}>
            {PREVIEWABLE.has(file.file_type) && <Preview ticketId={ticketId} file={file} />}
            <button
              type="button"
              class="link"
              onClick={() =>
                void download(ticketId, file).catch((e: Error & { status?: number }) =>
                  setError(e.status === 404 ? t('error.not_available') : e.message),
                )
              }
            >
              {t('ticket.download', { name: file.file_name })}
            </button>{' '}
            <span class="muted">({formatNumber(Math.ceil(file.file_size / 1024))} KB)</span>
          </li>
        ))}
      </ul>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function activityText(entry: TimelineEntry, names: Map<string, string>): string {
  const value = (field: string | null | undefined, v: string | null | undefined) =>
    v == null
      ? t('person.nobody')
      : field === 'status'
        ? label('status', v)
        : field === 'priority'
          ? label('priority', v)
          : v;
  switch (entry.type) {
    case 'created':
    case 'comment_added':
    case 'attachment_added':
      return t(`activity.${entry.type}`);
    case 'status_changed':
      return t('activity.status_changed', {
        old: value('status', entry.old_value),
        new: value('status', entry.new_value),
      });
    case 'assigned':
      // The trail keeps the assignee's id; the staff list gives the name.
      return t('activity.assigned', {
        old: value(null, entry.old_value && (names.get(entry.old_value) ?? entry.old_value)),
        new: value(null, entry.new_value && (names.get(entry.new_value) ?? entry.new_value)),
      });
    case 'field_updated':
      return t('activity.field_updated', {
        field: entry.field ?? '',
        old: value(entry.field, entry.old_value),
        new: value(entry.field, entry.new_value),
      });
    default:
      return t('activity.other', { type: entry.type ?? '' });
  }
}

export function Timeline(props: { ticketId: number; entries: TimelineEntry[]; names: Map<string, string> }) {
  const { ticketId, entries, names } = props;
  return (
    <ol class="timeline">
      {entries.map((entry) => (
        <li key={`${entry.kind}-${entry.id}`} class={`entry entry-${entry.kind}`}>
          {entry.kind === 'activity' ? (
            <p class="activity">
              <bdi>{personName(entry.author)}</bdi> · {activityText(entry, names)} ·{' '}
              <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
            </p>
          ) : (
            <article aria-label={`${t(`kind.${entry.kind}`)} · ${personName(entry.author)}`}>
              <header>
                <span class={`badge kind-${entry.kind}`}>{t(`kind.${entry.kind}`)}</span>{' '}
                <strong>
                  <bdi>{personName(entry.author)}</bdi>
                </strong>{' '}
                <time dateTime={entry.created_at} class="muted">
                  {formatDateTime(entry.created_at)}
                </time>
              </header>
              <p class="body" dir="auto">
                {entry.body}
              </p>
              <Attachments ticketId={ticketId} files={entry.attachments} />
            </article>
          )}
        </li>
      ))}
    </ol>
  );
}
