import { lazy, Suspense, useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading } from '../../components/ui';
import { SES_BOUNCE_REVIEW_RATE, SES_COMPLAINT_REVIEW_RATE } from '../../lib/deliverability';
import { formatPercent } from '../../lib/format';
import { useAnalytics, useContactCount, useSubscriberCount } from './api';

/** The charts load on their own: the Overview's figures show while they arrive. */
const DailyCharts = lazy(() => import('./daily-charts'));

const RANGES = [7, 30, 90] as const;

export function OverviewPage() {
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const analytics = useAnalytics(days);
  const contacts = useContactCount();
  const subscribers = useSubscriberCount();

  return (
    <>
      <PageHeader title="Overview">
        <div role="group" aria-label="Period" className="segmented">
          {RANGES.map((range) => (
            <button key={range} type="button" aria-pressed={days === range} onClick={() => setDays(range)}>
              {range} days
            </button>
          ))}
        </div>
      </PageHeader>

      <section aria-label="Audience" className="cards">
        <Figure label="Contacts" value={contacts.data?.total} />
        <Figure label="Subscribers" value={subscribers.data?.total} />
        {analytics.data && (
          <>
            <Figure label="Bounce rate" value={formatPercent(analytics.data.bounceRate)} warn={analytics.data.bounceRate >= SES_BOUNCE_REVIEW_RATE} note={`SES reviews at ${formatPercent(SES_BOUNCE_REVIEW_RATE)}`} />
            <Figure label="Complaint rate" value={formatPercent(analytics.data.complaintRate)} warn={analytics.data.complaintRate >= SES_COMPLAINT_REVIEW_RATE} note={`SES reviews at ${formatPercent(SES_COMPLAINT_REVIEW_RATE)}`} />
          </>
        )}
      </section>

      <section aria-labelledby="sending-title">
        <h2 id="sending-title">Sending, per day</h2>
        {analytics.isPending && <Loading what="the figures" />}
        <ErrorNote error={analytics.error} />
        {analytics.data && (
          <Suspense fallback={<Loading what="the charts" />}>
            <DailyCharts analytics={analytics.data} />
          </Suspense>
        )}
      </section>
    </>
  );
}

function Figure({ label, value, warn, note }: { label: string; value: number | string | undefined; warn?: boolean; note?: string }) {
  return (
    <div className={`card${warn ? ' warn' : ''}`}>
      <span className="card-label">{label}</span>
      <span className="card-value">{value ?? '…'}</span>
      {note && <small>{warn ? `Above the review threshold — ${note}` : note}</small>}
    </div>
  );
}
