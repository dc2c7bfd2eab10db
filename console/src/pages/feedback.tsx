// The assistant's feedback inbox (GET /api/admin/feedback), newest first, filtered by type.
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../generated/api';
import { api, call } from '../api/client';
import { formatDateTime, label, t, useLocale } from '../i18n';
import { ErrorLine, Loading, PageTitle, Pager, personName } from '../ui/parts';
import { locationStore, navigate } from '../ui/router';
import { useStore } from '../ui/store';

type Query = NonNullable<paths['/api/admin/feedback']['get']['parameters']['query']>;
type FeedbackType = NonNullable<Query['type']>;
const TYPES: FeedbackType[] = ['bug', 'feature_request', 'improvement', 'complaint', 'praise', 'other'];
type Answer = paths['/api/admin/feedback']['get']['responses'][200]['content']['application/json'];

export function FeedbackPage() {
  useLocale();
  const here = useStore(locationStore);
  const typeParam = here.query.get('type') as FeedbackType | null;
  const type = typeParam && TYPES.includes(typeParam) ? typeParam : undefined;
  const page = Math.max(1, Number(here.query.get('page')) || 1);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    setAnswer(null);
    call(api.GET('/api/admin/feedback', { params: { query: { type, page, per_page: 20 } } })).then(setAnswer, setError);
  }, [type, page]);

  const go = (next: { type?: string; page?: number }) => {
    const params = new URLSearchParams();
    if (next.type) params.set('type', next.type);
    if (next.page && next.page > 1) params.set('page', String(next.page));
    navigate(`/feedback${params.size ? `?${params}` : ''}`);
  };

  return (
    <section>
      <PageTitle text={t('feedback.title')} />
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('feedback.type')}
          <select value={type ?? ''} onChange={(e) => go({ type: e.currentTarget.value })}>
            <option value="">{t('filter.any')}</option>
            {TYPES.map((x) => (
              <option value={x}>{label('feedback', x)}</option>
            ))}
          </select>
        </label>
      </form>
      {error !== null && <ErrorLine error={error} />}
      {!answer ? (
        error === null && <Loading />
      ) : answer.data.length === 0 ? (
        <p>{t('feedback.empty')}</p>
      ) : (
        <ul class="cards">
          {answer.data.map((f) => (
            <li key={f.id} class="card">
              <h2 class="card-title">
                <bdi>{f.subject}</bdi>
              </h2>
              <p class="muted">
                {label('feedback', f.type)}
                {f.rating != null && ` · ${t('feedback.rating')}: ${t('feedback.rating_value', { n: f.rating })}`} ·{' '}
                <bdi>{personName(f.user)}</bdi> (<bdi>{f.user.email}</bdi>) · {formatDateTime(f.created_at)}
              </p>
              <p class="body" dir="auto">
                {f.content}
              </p>
            </li>
          ))}
        </ul>
      )}
      {answer && (
        <Pager page={answer.meta.current_page} pages={answer.meta.last_page} onPage={(p) => go({ type, page: p })} />
      )}
    </section>
  );
}
