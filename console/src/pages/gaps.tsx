// The questions the assistant could not answer, grouped, most asked first.
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../api/client';
import type { Gap } from '../api/pending';
import { formatDateTime, formatNumber, t, useLocale } from '../i18n';
import { ErrorLine, Loading, PageTitle } from '../ui/parts';

export function GapsPage() {
  useLocale();
  const [gaps, setGaps] = useState<Gap[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    call(api.GET('/api/admin/assistant/gaps')).then((answer) => setGaps(answer.data), setError);
  }, []);
  return (
    <section>
      <PageTitle text={t('gaps.title')} />
      {error !== null && <ErrorLine error={error} missing />}
      {!gaps ? (
        error === null && <Loading />
      ) : gaps.length === 0 ? (
        <p>{t('gaps.empty')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('gaps.question')}</th>
              <th scope="col">{t('gaps.count')}</th>
              <th scope="col">{t('gaps.last')}</th>
            </tr>
          </thead>
          <tbody>
            {gaps.map((gap, i) => (
              <tr key={i}>
                <td dir="auto">{gap.question}</td>
                <td>{formatNumber(gap.count)}</td>
                <td>{formatDateTime(gap.last_asked_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
