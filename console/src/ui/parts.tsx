// Small pieces every page uses: the page heading (focused after a navigation, for screen readers
// and keyboards), loading and error lines, the pager.
import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from '../api/client';
import { t } from '../i18n';
import { navigation } from './router';

export function PageTitle({ text }: { text: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${text} · ${t('app.name')}`;
  }, [text]);
  useEffect(() => {
    if (navigation.happened) ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {text}
    </h1>
  );
}

export function Loading() {
  return (
    <p class="muted" role="status">
      {t('app.loading')}
    </p>
  );
}

/** An error as a line of text; a 404 of an endpoint the server lacks says so. */
export function ErrorLine({ error, missing }: { error: unknown; missing?: boolean }) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 405) && missing)
    return <p class="notice">{t('error.not_available')}</p>;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p class="error" role="alert">
      {t('error.generic', { message })}
    </p>
  );
}

export function Pager(props: { page: number; pages: number; onPage: (page: number) => void }) {
  const { page, pages, onPage } = props;
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label={t('page.of', { page, pages })}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('page.previous')}
      </button>
      <span>{t('page.of', { page, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('page.next')}
      </button>
    </nav>
  );
}

/** A person's name as text ("—" for nobody). */
export function personName(person: { first_name?: string | null; last_name?: string | null } | null | undefined) {
  if (!person) return t('person.nobody');
  const name = [person.first_name, person.last_name].filter(Boolean).join(' ');
  return name || t('person.nobody');
}
