// Charts drawn as SVG: vertical bars (one series or stacked) and horizontal bars. Each has a text
// alternative (role="img" with a label) and its data as a table beside it. Labels are text nodes,
// so a category a member typed stays text. In a right-to-left page the bars run right to left.
import { formatNumber, t, useLocale } from '../i18n';

export interface Series {
  name: string;
  className: string;
}

export interface Bar {
  label: string;
  values: number[];
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, bottom: 40, side: 40 };

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

function DataTable({ title, series, bars }: { title: string; series: Series[]; bars: Bar[] }) {
  return (
    <details class="chart-table">
      <summary>{t('reports.table')}</summary>
      <table>
        <caption class="visually-hidden">{title}</caption>
        <thead>
          <tr>
            <th scope="col">{title}</th>
            {series.map((s) => (
              <th scope="col" key={s.name}>
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {bars.map((bar, i) => (
            <tr key={i}>
              <th scope="row">
                <bdi>{bar.label}</bdi>
              </th>
              {bar.values.map((v, j) => (
                <td key={j}>{formatNumber(v)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function Legend({ series }: { series: Series[] }) {
  if (series.length < 2) return null;
  return (
    <ul class="legend">
      {series.map((s) => (
        <li key={s.name}>
          <span class={`swatch ${s.className}`} aria-hidden="true" /> {s.name}
        </li>
      ))}
    </ul>
  );
}

/** Vertical bars; with several series they are stacked. */
export function ColumnChart({ title, series, bars }: { title: string; series: Series[]; bars: Bar[] }) {
  const rtl = useLocale() === 'fa';
  const ordered = rtl ? [...bars].reverse() : bars;
  const max = niceMax(Math.max(0, ...bars.map((b) => b.values.reduce((a, v) => a + v, 0))));
  const plotWidth = WIDTH - PAD.side * 2;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, ordered.length);
  const barWidth = Math.max(2, Math.min(40, slot * 0.7));
  // At most seven labels: a day label (e.g. "29 Oct 2026") is wider than three bars.
  const every = Math.ceil(ordered.length / 7);
  const y = (v: number) => PAD.top + plotHeight - (v / max) * plotHeight;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('reports.chart', { title })}>
        <line class="axis" x1={PAD.side} x2={WIDTH - PAD.side} y1={y(0)} y2={y(0)} />
        <line class="grid" x1={PAD.side} x2={WIDTH - PAD.side} y1={y(max)} y2={y(max)} />
        <text
          class="tick"
          x={rtl ? WIDTH - PAD.side + 4 : PAD.side - 4}
          y={y(max) + 4}
          text-anchor={rtl ? 'start' : 'end'}
        >
          {formatNumber(max)}
        </text>
        {ordered.map((bar, i) => {
          const x = PAD.side + i * slot + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={i}>
              {bar.values.map((v, j) => {
                const top = y(base + v);
                const height = y(base) - top;
                base += v;
                return (
                  <rect
                    key={j}
                    class={series[j]?.className}
                    x={x}
                    y={top}
                    width={barWidth}
                    height={Math.max(0, height)}
                  />
                );
              })}
              {i % every === 0 && (
                <text class="tick" x={x + barWidth / 2} y={HEIGHT - PAD.bottom + 16} text-anchor="middle">
                  {bar.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <Legend series={series} />
      <DataTable title={title} series={series} bars={bars} />
    </figure>
  );
}

/** Horizontal bars of one series, longest first as given. */
export function BarList({ title, series, bars }: { title: string; series: Series; bars: Bar[] }) {
  const rtl = useLocale() === 'fa';
  const max = niceMax(Math.max(0, ...bars.map((b) => b.values[0] ?? 0)));
  const row = 26;
  const labelWidth = 180;
  const height = bars.length * row + 8;
  const plot = WIDTH - labelWidth - 60;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={t('reports.chart', { title })}>
        {bars.map((bar, i) => {
          const value = bar.values[0] ?? 0;
          const length = (value / max) * plot;
          const yTop = 4 + i * row;
          const x = rtl ? WIDTH - labelWidth - length : labelWidth;
          return (
            <g key={i}>
              <text
                class="label"
                x={rtl ? WIDTH - 4 : labelWidth - 6}
                y={yTop + 16}
                text-anchor={rtl ? 'start' : 'end'}
                direction={rtl ? 'rtl' : 'ltr'}
              >
                {bar.label.length > 28 ? `${bar.label.slice(0, 27)}…` : bar.label}
              </text>
              <rect class={series.className} x={x} y={yTop + 4} width={Math.max(0, length)} height={row - 10} />
              <text
                class="label"
                x={rtl ? x - 4 : x + length + 4}
                y={yTop + 16}
                text-anchor="start"
                direction={rtl ? 'rtl' : 'ltr'}
              >
                {formatNumber(value)}
              </text>
            </g>
          );
        })}
      </svg>
      <DataTable title={title} series={[series]} bars={bars} />
    </figure>
  );
}
