import type { components } from '../../lib/schema';

type Analytics = components['schemas']['Analytics'];

const SERIES: readonly (readonly [keyof Analytics['totals'], string])[] = [
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['opened', 'Opened'],
  ['clicked', 'Clicked'],
  ['bounced', 'Bounced'],
  ['complained', 'Complained'],
];

const WIDTH = 320;
const HEIGHT = 96;

/**
 * One small bar chart per figure, drawn as inline SVG (no chart library). Each has a text
 * equivalent: the total in its heading, and the per-day values as the SVG's description.
 */
export default function DailyCharts({ analytics }: { analytics: Analytics }) {
  return (
    <div className="charts">
      {SERIES.map(([key, label]) => {
        const values = analytics.days.map((day) => day[key]);
        const max = Math.max(1, ...values);
        const barWidth = WIDTH / Math.max(1, values.length);
        const titleId = `chart-${key}`;
        return (
          <figure key={key} className={`chart chart-${key}`}>
            <figcaption id={titleId}>
              {label}: <strong>{analytics.totals[key]}</strong>
            </figcaption>
            <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none">
              <desc>{analytics.days.map((day) => `${day.date}: ${day[key]}`).join(', ')}</desc>
              <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="axis" />
              {values.map((value, index) => {
                const height = (value / max) * (HEIGHT - 4);
                return (
                  <rect key={analytics.days[index]!.date} x={index * barWidth + barWidth * 0.1} y={HEIGHT - height} width={barWidth * 0.8} height={height}>
                    <title>{`${analytics.days[index]!.date}: ${value}`}</title>
                  </rect>
                );
              })}
            </svg>
            <div className="chart-range" aria-hidden="true">
              <span>{analytics.days[0]?.date}</span>
              <span>{analytics.days.at(-1)?.date}</span>
            </div>
          </figure>
        );
      })}
    </div>
  );
}
