import { useEffect } from 'react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading, StatusBadge } from '../../components/ui';
import { rateLevel, SES_BOUNCE_REVIEW_RATE, SES_COMPLAINT_REVIEW_RATE } from '../../lib/deliverability';
import { formatDateTime, formatPercent } from '../../lib/format';
import { AbTestReport } from './ab-test-panel';
import { useCampaignStats, useCancelCampaign, useSendCampaign, type Campaign } from './api';
import { ZonesPanel } from './local-time-delivery';
import { SpreadProgress } from './spread-panel';

type Stats = NonNullable<ReturnType<typeof useCampaignStats>['data']>;
type HourFigure = Stats['hourly'][number];

/**
 * A campaign once it has started: every figure and rate of GET /campaigns/{id}/stats, the hourly
 * chart and the link table. While SENDING the campaign and its stats are read again every few
 * seconds (features/campaigns/api.ts), so the page follows it without a refresh.
 */
export default function CampaignReport({ campaign }: { campaign: Campaign }) {
  const stats = useCampaignStats(campaign.id, campaign.status);
  const send = useSendCampaign(campaign.id);
  const cancel = useCancelCampaign(campaign.id);
  const live = campaign.status === 'SENDING';
  const { refetch } = stats;
  // The figures are read again when the status moves on, and once more 5 s later: the counters of
  // the last emails may land just after the status (no polling once SENDING is over).
  useEffect(() => {
    void refetch();
    const again = setTimeout(() => void refetch(), 5000);
    return () => clearTimeout(again);
  }, [campaign.status, refetch]);

  return (
    <>
      <PageHeader title={campaign.name}>
        <StatusBadge status={campaign.status} />
        {(campaign.status === 'SENDING' || campaign.status === 'PAUSED') && (
          <ConfirmButton
            className="danger"
            disabled={cancel.isPending}
            question={{ title: 'Cancel this campaign?', message: `${campaign.name} stops: emails not yet handed to SES are cancelled; those sent stay sent.`, confirmLabel: 'Cancel campaign' }}
            onConfirm={() => cancel.mutate()}
          >
            Cancel campaign
          </ConfirmButton>
        )}
      </PageHeader>
      {live && (
        <p className="muted" role="status">
          Sending — this page updates itself.
        </p>
      )}
      {campaign.status === 'PAUSED' && (
        <div className="warn-note" role="alert">
          <p>
            <strong>Paused {formatDateTime(campaign.pausedAt)}:</strong> {campaign.pauseReason ?? 'by the deliverability guard'}
          </p>
          <ConfirmButton
            className="primary"
            disabled={send.isPending}
            question={{ title: 'Resume this campaign?', message: `${campaign.name} sends its remaining emails, each once.`, confirmLabel: 'Resume sending' }}
            onConfirm={() => send.mutate(null)}
          >
            Resume
          </ConfirmButton>
        </div>
      )}
      <ErrorNote error={send.error ?? cancel.error ?? stats.error} />
      <dl className="facts">
        <dt>Started</dt>
        <dd>{formatDateTime(campaign.sentAt)}</dd>
        <dt>Recipients</dt>
        <dd>{campaign.totalRecipients}</dd>
        {campaign.cancelledAt && (
          <>
            <dt>Cancelled</dt>
            <dd>{formatDateTime(campaign.cancelledAt)}</dd>
          </>
        )}
        {campaign.failureReason && (
          <>
            <dt>Failure</dt>
            <dd>{campaign.failureReason}</dd>
          </>
        )}
      </dl>
      {campaign.delivery && <ZonesPanel delivery={campaign.delivery} />}
      <SpreadProgress campaign={campaign} sent={stats.data?.sentCount} />
      {campaign.abTest && <AbTestReport campaign={campaign} stats={stats.data} />}
      {stats.data ? <Figures stats={stats.data} /> : stats.isPending && <Loading what="the figures" />}
      <p>
        <Link to="/campaigns">All campaigns</Link>
      </p>
    </>
  );
}

function Figures({ stats }: { stats: Stats }) {
  const { links, hourly } = stats;
  const bounce = rateLevel(stats.bounceRate / 100, 'bounce');
  const complaint = rateLevel(stats.complaintRate / 100, 'complaint');
  const cards: [string, number | string, string?, ('ok' | 'warn' | 'danger')?][] = [
    ['Recipients', stats.totalRecipients],
    ['Sent', stats.sentCount],
    ['Delivered', stats.deliveredCount, `${stats.deliveryRate} %`],
    ['Opened (unique)', stats.openedCount, `${stats.openRate} % · ${stats.opens} opens`],
    ['Clicked (unique)', stats.clickedCount, `${stats.clickRate} % · ${stats.clicks} clicks`],
    ['Bounced', stats.bouncedCount, `${stats.bounceRate} % (SES reviews at ${formatPercent(SES_BOUNCE_REVIEW_RATE)})`, bounce],
    ['Complained', stats.complainedCount, `${stats.complaintRate} % (SES reviews at ${formatPercent(SES_COMPLAINT_REVIEW_RATE)})`, complaint],
    ['Unsubscribed', stats.unsubscribedCount, `${stats.unsubscribeRate} %`],
    ['Failed', stats.failedCount],
    ['Suppressed', stats.suppressedCount],
    ['Cancelled', stats.cancelledCount],
  ];
  return (
    <>
      <section aria-labelledby="figures-title">
        <h2 id="figures-title">Figures</h2>
        <div className="cards">
          {cards.map(([label, value, note, level]) => (
            <div key={label} className={`card${level && level !== 'ok' ? ` ${level}` : ''}`}>
              <span className="card-label">{label}</span>
              <span className="card-value">{value}</span>
              {note && <small>{level && level !== 'ok' ? `${level === 'danger' ? 'At SES pause level' : 'Above the review threshold'} — ${note}` : note}</small>}
            </div>
          ))}
        </div>
      </section>
      <section aria-labelledby="hourly-title">
        <h2 id="hourly-title">Hour by hour (UTC)</h2>
        {hourly.length ? <HourlyChart hours={hourly} /> : <p className="muted">No hourly figures yet.</p>}
      </section>
      <section aria-labelledby="links-title">
        <h2 id="links-title">Links</h2>
        <DataTable
          caption="Links, most clicked first"
          columns={[
            { header: 'Link', cell: (link) => <span className="record">{link.url}</span> },
            { header: 'Clicks', cell: (link) => link.clicks },
            { header: 'Unique clicks', cell: (link) => link.uniqueClicks },
          ]}
          rows={links}
          rowKey={(link) => link.url}
          empty="No clicks yet."
        />
      </section>
    </>
  );
}

const SERIES = [
  ['delivered', 'Delivered'],
  ['opened', 'Opened'],
  ['clicked', 'Clicked'],
] as const;
const WIDTH = 640;
const HEIGHT = 120;

/** Delivered, opened and clicked per UTC hour, as grouped bars in inline SVG, with a text equivalent. */
function HourlyChart({ hours }: { hours: HourFigure[] }) {
  const max = Math.max(1, ...hours.flatMap((hour) => SERIES.map(([key]) => hour[key])));
  const slot = WIDTH / hours.length;
  const bar = (slot * 0.8) / SERIES.length;
  return (
    <figure className="chart hourly">
      <figcaption id="hourly-caption" className="legend">
        {SERIES.map(([key, label]) => (
          <span key={key} className={`legend-${key}`}>
            {label}
          </span>
        ))}
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="hourly-caption" preserveAspectRatio="none">
        <desc>{hours.map((hour) => `${hour.hour}: ${hour.delivered} delivered, ${hour.opened} opened, ${hour.clicked} clicked`).join('; ')}</desc>
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="axis" />
        {hours.map((hour, index) =>
          SERIES.map(([key], series) => {
            const height = (hour[key] / max) * (HEIGHT - 4);
            return (
              <rect key={`${hour.hour}-${key}`} className={`bar-${key}`} x={index * slot + slot * 0.1 + series * bar} y={HEIGHT - height} width={bar} height={height}>
                <title>{`${hour.hour} ${key}: ${hour[key]}`}</title>
              </rect>
            );
          }),
        )}
      </svg>
      <div className="chart-range" aria-hidden="true">
        <span>{hours[0]?.hour.slice(0, 13).replace('T', ' ')}h</span>
        <span>{hours.at(-1)?.hour.slice(0, 13).replace('T', ' ')}h</span>
      </div>
    </figure>
  );
}
