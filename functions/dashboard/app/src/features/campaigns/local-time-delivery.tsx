import { useState } from 'react';
import { DataTable } from '../../components/data-table';
import { ErrorNote, Field, StatusBadge } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useSendAtLocalTime, type Campaign } from './api';

type Delivery = NonNullable<Campaign['delivery']>;

/**
 * Delivery at a local time in each recipient's own time zone: the composer's option (send at
 * this time in each recipient's zone: the time, the contact field holding the zone, the
 * fallback zone) and the campaign's zones (their moments, recipients and status).
 */
export function LocalTimeSendForm({ campaign }: { campaign: Campaign }) {
  const [localTime, setLocalTime] = useState(campaign.delivery?.localTime ?? '');
  const [timeZoneField, setTimeZoneField] = useState(campaign.delivery?.timeZoneField ?? 'data.timezone');
  const [fallbackTimeZone, setFallbackTimeZone] = useState(campaign.delivery?.fallbackTimeZone ?? 'UTC');
  const send = useSendAtLocalTime(campaign.id);
  return (
    <form
      className="stack local-time-send"
      aria-labelledby="local-time-title"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate({ localTime, timeZoneField: timeZoneField.trim(), fallbackTimeZone: fallbackTimeZone.trim() });
      }}
    >
      <h3 id="local-time-title">At this time in each recipient&rsquo;s time zone</h3>
      <p className="muted">Each contact gets it when their own clock reads this time; zones where it has already passed get it at once.</p>
      <div className="form-grid">
        <Field label="Local time" type="datetime-local" required value={localTime} onChange={(event) => setLocalTime(event.target.value.slice(0, 16))} hint="The recipient's wall-clock time" />
        <Field label="Time zone field" required value={timeZoneField} onChange={(event) => setTimeZoneField(event.target.value)} pattern="data(\.[A-Za-z0-9_\-]+)+" hint="A contact field with an IANA zone, e.g. data.timezone" />
        <Field label="Fallback time zone" required value={fallbackTimeZone} onChange={(event) => setFallbackTimeZone(event.target.value)} hint="For contacts without a valid zone, e.g. UTC or Europe/Berlin" />
      </div>
      <ErrorNote error={send.error} />
      <div className="actions">
        <button type="submit" disabled={send.isPending || !localTime}>
          {campaign.delivery ? 'Reschedule in each time zone' : 'Schedule in each time zone'}
        </button>
      </div>
    </form>
  );
}

/** The campaign's local-time delivery: when it starts and ends, and its zones once the audience is frozen. */
export function ZonesPanel({ delivery }: { delivery: Delivery }) {
  const sent = delivery.zones.filter((zone) => zone.status === 'SENT').length;
  return (
    <section className="panel" aria-labelledby="zones-title">
      <h2 id="zones-title">Time zones</h2>
      <p>
        At <strong>{delivery.localTime.replace('T', ' ')}</strong> in each recipient&rsquo;s time zone (from <code>{delivery.timeZoneField}</code>; otherwise {delivery.fallbackTimeZone}): the first zone at{' '}
        {formatDateTime(delivery.startsAt)}, the last at {formatDateTime(delivery.endsAt)}.
      </p>
      {delivery.zones.length > 0 && (
        <p className="muted" role="status">
          {sent} of {delivery.zones.length} zones gone out.
        </p>
      )}
      <DataTable
        caption="Time zones, earliest first"
        columns={[
          { header: 'Time zone', cell: (zone) => zone.timeZone, label: 'Time zone' },
          { header: 'Goes out', cell: (zone) => <time dateTime={zone.at}>{formatDateTime(zone.at)}</time>, label: 'Goes out' },
          { header: 'Recipients', cell: (zone) => zone.recipients, label: 'Recipients' },
          { header: 'Status', cell: (zone) => <StatusBadge status={zone.status} />, label: 'Status' },
        ]}
        rows={delivery.zones}
        rowKey={(zone) => zone.timeZone}
        className="records"
        empty="The zones are listed when the first zone starts: the audience is frozen then."
      />
    </section>
  );
}
