import { useEffect, useState } from 'react';
import { Field } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import type { Campaign } from './api';

/** The API's limits on spreadOverMinutes (shared/campaigns/spread.ts). */
export const SPREAD_MAX_MINUTES = 1440;

/** 150 → "2 h 30 min". */
export function formatMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours ? `${hours} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ') || '0 min';
}

/** The composer's option: spread the sending over a number of minutes (empty: as fast as SES allows). */
export function SpreadField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const minutes = Number(value);
  const valid = value !== '' && Number.isInteger(minutes) && minutes >= 1 && minutes <= SPREAD_MAX_MINUTES;
  return (
    <Field
      label="Spread sending over (minutes)"
      type="number"
      inputMode="numeric"
      min={1}
      max={SPREAD_MAX_MINUTES}
      step={1}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder="At once"
      hint={valid ? `Evenly over ${formatMinutes(minutes)} from when sending starts (never faster than SES allows)` : 'Empty: at once. 1–1440 (24 h): the mail goes out evenly over that time'}
    />
  );
}

/** A clock that ticks every `ms` while `running`. */
function useNow(running: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [running, ms]);
  return now;
}

/**
 * The campaign page's spread: its window, the emails sent of the recipients (the stats'
 * sentCount) and how many were due by now, each as a progress bar.
 */
export function SpreadProgress({ campaign, sent }: { campaign: Campaign; sent: number | undefined }) {
  const spread = campaign.spread;
  const live = campaign.status === 'SENDING';
  const now = useNow(live);
  if (!spread) return null;
  const start = Date.parse(spread.startedAt);
  const span = Date.parse(spread.endsAt) - start;
  const recipients = spread.recipients ?? campaign.totalRecipients;
  const elapsed = Math.min(1, Math.max(0, (now - start) / span));
  const due = live ? Math.min(recipients, Math.floor(elapsed * recipients) + 1) : recipients;
  const done = Math.min(sent ?? 0, recipients);
  return (
    <section className="panel" aria-labelledby="spread-title">
      <h2 id="spread-title">Spread over {formatMinutes(spread.overMinutes)}</h2>
      <dl className="facts">
        <dt>Window</dt>
        <dd>
          {formatDateTime(spread.startedAt)} → {formatDateTime(spread.endsAt)}
        </dd>
        <dt>Pace</dt>
        <dd>{recipients > 0 ? `One email every ${formatSeconds(span / 1000 / recipients)}` : 'Counting the audience…'}</dd>
      </dl>
      <label htmlFor="spread-sent">
        Sent: {sent === undefined ? '…' : `${done} of ${recipients}`}
        {live && recipients > 0 && <span className="muted"> · due by now: {due}</span>}
      </label>
      <progress id="spread-sent" max={Math.max(recipients, 1)} value={done} />
      {live && (
        <>
          <label htmlFor="spread-time">Time: {Math.round(elapsed * 100)} % of the window</label>
          <progress id="spread-time" max={100} value={Math.round(elapsed * 100)} />
        </>
      )}
    </section>
  );
}

const formatSeconds = (seconds: number) => (seconds >= 90 ? formatMinutes(Math.round(seconds / 60)) : `${Math.max(0.1, Math.round(seconds * 10) / 10)} s`);
