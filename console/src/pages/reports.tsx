// Reports over a date range: SLA compliance (met and breached by priority and by week, first
// response and resolution apart), first-response and resolution times (median, 90th percentile),
// and the volume of new tickets by day and by category.
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../api/client';
import type { Durations, SlaReport, TimesReport, VolumeReport } from '../api/pending';
import { formatDay, formatNumber, label, t, useLocale } from '../i18n';
import { BarList, ColumnChart } from '../ui/charts';
import { ErrorLine, Loading, PageTitle } from '../ui/parts';
import { locationStore, navigate } from '../ui/router';
import { useStore } from '../ui/store';

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function duration(minutes: number | null): string {
  if (minutes == null) return '—';
  return minutes >= 120
    ? t('reports.hours', { n: Math.round((minutes / 60) * 10) / 10 })
    : t('reports.minutes', { n: Math.round(minutes) });
}

type Loaded<T> = { data: T } | { error: unknown } | null;

function useReport<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>(null);
  useEffect(() => {
    setState(null);
    load().then(
      (data) => setState({ data }),
      (error: unknown) => setState({ error }),
    );
  }, [key]);
  return state;
}

function Block<T>({ state, render }: { state: Loaded<T>; render: (data: T) => preact.ComponentChildren }) {
  if (!state) return <Loading />;
  if ('error' in state) return <ErrorLine error={state.error} missing />;
  return <>{render(state.data)}</>;
}

function SlaSection({ report }: { report: SlaReport }) {
  const series = [
    { name: t('reports.met'), className: 'fill-met' },
    { name: t('reports.breached'), className: 'fill-breached' },
  ];
  const targets = ['first_response', 'resolution'] as const;
  return (
    <>
      <h3>{t('reports.sla_by_priority')}</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('reports.priority')}</th>
            <th scope="col">{t('reports.target')}</th>
            <th scope="col">{t('reports.met')}</th>
            <th scope="col">{t('reports.breached')}</th>
          </tr>
        </thead>
        <tbody>
          {report.by_priority.flatMap((row) =>
            targets.map((target) => (
              <tr key={`${row.priority}-${target}`}>
                <th scope="row">{label('priority', row.priority)}</th>
                <td>{t(target === 'first_response' ? 'ticket.first_response' : 'ticket.resolution')}</td>
                <td>{formatNumber(row[target].met)}</td>
                <td>{formatNumber(row[target].breached)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <h3>{t('reports.sla_by_week')}</h3>
      {targets.map((target) => {
        const title = `${t(target === 'first_response' ? 'ticket.first_response' : 'ticket.resolution')} · ${t('reports.sla_by_week')}`;
        return (
          <figure key={target} class="chart-figure">
            <figcaption>{t(target === 'first_response' ? 'ticket.first_response' : 'ticket.resolution')}</figcaption>
            <ColumnChart
              title={title}
              series={series}
              bars={report.by_week.map((w) => ({
                label: formatDay(w.week),
                values: [w[target].met, w[target].breached],
              }))}
            />
          </figure>
        );
      })}
    </>
  );
}

function TimesSection({ report }: { report: TimesReport }) {
  const rows: { name: string; first: Durations; resolution: Durations }[] = [
    { name: t('reports.overall'), first: report.overall.first_response, resolution: report.overall.resolution },
    ...report.by_priority.map((p) => ({
      name: label('priority', p.priority),
      first: p.first_response,
      resolution: p.resolution,
    })),
  ];
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{t('reports.priority')}</th>
          <th scope="col">{`${t('ticket.first_response')} · ${t('reports.median')}`}</th>
          <th scope="col">{`${t('ticket.first_response')} · ${t('reports.p90')}`}</th>
          <th scope="col">{`${t('ticket.resolution')} · ${t('reports.median')}`}</th>
          <th scope="col">{`${t('ticket.resolution')} · ${t('reports.p90')}`}</th>
          <th scope="col">{t('reports.count')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th scope="row">{row.name}</th>
            <td>{duration(row.first.median)}</td>
            <td>{duration(row.first.p90)}</td>
            <td>{duration(row.resolution.median)}</td>
            <td>{duration(row.resolution.p90)}</td>
            <td>{formatNumber(row.first.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ReportsPage() {
  useLocale();
  const here = useStore(locationStore);
  const now = Date.now();
  const from = here.query.get('from') ?? isoDay(now - 27 * DAY);
  const to = here.query.get('to') ?? isoDay(now);
  const range = { from, to };
  const key = `${from}/${to}`;
  const sla = useReport(
    async () => (await call(api.GET('/api/admin/reports/sla', { params: { query: range } }))).data,
    key,
  );
  const times = useReport(
    async () => (await call(api.GET('/api/admin/reports/times', { params: { query: range } }))).data,
    key,
  );
  const byDay = useReport(
    async () => (await call(api.GET('/api/admin/reports/volume', { params: { query: { ...range, by: 'day' } } }))).data,
    key,
  );
  const byCategory = useReport(
    async () =>
      (await call(api.GET('/api/admin/reports/volume', { params: { query: { ...range, by: 'category' } } }))).data,
    key,
  );
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    navigate(`/reports?from=${String(form.get('from'))}&to=${String(form.get('to'))}`);
  };
  const volume = (report: VolumeReport, day: boolean) =>
    report.data.length === 0 ? (
      <p>{t('reports.empty')}</p>
    ) : day ? (
      <ColumnChart
        title={t('reports.volume_day')}
        series={[{ name: t('reports.count'), className: 'fill-volume' }]}
        bars={report.data.map((d) => ({ label: formatDay(d.key ?? ''), values: [d.count] }))}
      />
    ) : (
      <BarList
        title={t('reports.volume_category')}
        series={{ name: t('reports.count'), className: 'fill-volume' }}
        bars={report.data.map((d) => ({ label: d.key ?? t('reports.no_category'), values: [d.count] }))}
      />
    );

  return (
    <section>
      <PageTitle text={t('reports.title')} />
      <form class="filters" onSubmit={submit}>
        <label>
          {t('reports.from')}
          <input type="date" name="from" value={from} required />
        </label>
        <label>
          {t('reports.to')}
          <input type="date" name="to" value={to} required />
        </label>
        <button type="submit">{t('reports.show')}</button>
        <span class="muted">
          {formatDay(from)} – {formatDay(to)}
        </span>
      </form>
      <section aria-labelledby="sla-report">
        <h2 id="sla-report">{t('reports.sla')}</h2>
        <Block state={sla} render={(report) => <SlaSection report={report} />} />
      </section>
      <section aria-labelledby="times-report">
        <h2 id="times-report">{t('reports.times')}</h2>
        <Block state={times} render={(report) => <TimesSection report={report} />} />
      </section>
      <section aria-labelledby="volume-day">
        <h2 id="volume-day">{t('reports.volume_day')}</h2>
        <Block state={byDay} render={(report) => volume(report, true)} />
      </section>
      <section aria-labelledby="volume-category">
        <h2 id="volume-category">{t('reports.volume_category')}</h2>
        <Block state={byCategory} render={(report) => volume(report, false)} />
      </section>
    </section>
  );
}
