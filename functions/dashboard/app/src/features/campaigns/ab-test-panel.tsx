import { useEffect, useState } from 'react';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { ErrorNote, Field, SelectField } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useAbWinner, type Campaign, type CampaignStats } from './api';

/** The composer's A/B test, as the form edits it (numbers as typed). */
export interface AbDraft {
  subjects: string[];
  samplePercent: string;
  metric: 'opens' | 'clicks';
  waitMinutes: string;
}

type AbTest = NonNullable<Campaign['abTest']>;

export const abDraftOf = (test: Campaign['abTest']): AbDraft | null =>
  test ? { subjects: test.variants.map((variant) => variant.subject), samplePercent: String(test.samplePercent), metric: test.metric, waitMinutes: String(test.waitMinutes) } : null;

/** The draft as the API takes it (the API checks the limits and answers a 422 naming the field). */
export const abInputOf = (draft: AbDraft) => ({
  variants: draft.subjects.map((subject) => ({ subject })),
  samplePercent: Number(draft.samplePercent),
  metric: draft.metric,
  waitMinutes: Number(draft.waitMinutes),
});

const NEW_TEST = (subject: string): AbDraft => ({ subjects: [subject, ''], samplePercent: '20', metric: 'opens', waitMinutes: '240' });

/**
 * The composer's "A/B test the subject" part: 2–4 subjects, the sample's share (5–50 %), the
 * metric and the wait. Off: no test (PATCH sends abTest null).
 */
export function AbTestFields({ value, subject, onChange }: { value: AbDraft | null; subject: string; onChange: (value: AbDraft | null) => void }) {
  const set = (changes: Partial<AbDraft>) => value && onChange({ ...value, ...changes });
  const setSubject = (index: number, text: string) => value && set({ subjects: value.subjects.map((old, at) => (at === index ? text : old)) });
  return (
    <fieldset className="stack ab-test">
      <legend>A/B test</legend>
      <label className="checkbox">
        <input type="checkbox" checked={value !== null} onChange={(event) => onChange(event.target.checked ? NEW_TEST(subject) : null)} />
        Try variants on a sample first, then send the winner to the rest
      </label>
      {value && (
        <>
          {value.subjects.map((text, index) => (
            <div key={index} className="inline-form">
              <Field label={`Subject ${String.fromCharCode(65 + index)}`} value={text} required maxLength={998} onChange={(event) => setSubject(index, event.target.value)} />
              {value.subjects.length > 2 && (
                <button type="button" onClick={() => set({ subjects: value.subjects.filter((_, at) => at !== index) })} aria-label={`Remove subject ${String.fromCharCode(65 + index)}`}>
                  Remove
                </button>
              )}
            </div>
          ))}
          {value.subjects.length < 4 && (
            <button type="button" onClick={() => set({ subjects: [...value.subjects, ''] })}>
              Add a subject
            </button>
          )}
          <div className="form-grid">
            <Field label="Sample (% of the audience)" type="number" min={5} max={50} step={1} required value={value.samplePercent} onChange={(event) => set({ samplePercent: event.target.value })} hint="5–50 %, split evenly among the subjects" />
            <SelectField
              label="Winner by"
              value={value.metric}
              onChange={(event) => set({ metric: event.target.value as AbDraft['metric'] })}
              options={[
                ['opens', 'Unique open rate'],
                ['clicks', 'Unique click rate'],
              ]}
            />
            <Field label="Wait (minutes)" type="number" min={1} max={10080} step={1} required value={value.waitMinutes} onChange={(event) => set({ waitMinutes: event.target.value })} hint="1 minute to 7 days, from when the sample has gone out" />
          </div>
        </>
      )}
    </fieldset>
  );
}

const letter = (variant: number) => String.fromCharCode(65 + variant);

/** Minutes and seconds until `until`, ticking each second. */
function Countdown({ until }: { until: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Date.parse(until) - now);
  const hours = Math.floor(left / 3_600_000);
  const minutes = Math.floor((left % 3_600_000) / 60_000);
  const seconds = Math.floor((left % 60_000) / 1000);
  const text = `${hours > 0 ? `${hours} h ` : ''}${minutes} min ${String(seconds).padStart(2, '0')} s`;
  return <strong className="countdown">{left > 0 ? text : 'any moment now'}</strong>;
}

const PHASES: Record<AbTest['phase'] & string, string> = {
  SAMPLE: 'Sending the sample',
  WAITING: 'Waiting for the winner',
  WINNER: 'Winner sent to the rest',
};

/**
 * The campaign page's A/B test: its phase, the countdown to the automatic pick while WAITING,
 * each variant's sample figures with the winner marked, and "Pick this winner" while WAITING.
 */
export function AbTestReport({ campaign, stats }: { campaign: Campaign; stats: CampaignStats | undefined }) {
  const test = campaign.abTest!;
  const pick = useAbWinner(campaign.id);
  const waiting = test.phase === 'WAITING' && (campaign.status === 'SENDING' || campaign.status === 'PAUSED');
  const rows = stats?.variants.length ? stats.variants : test.variants.map((variant, index) => ({ variant: index, subject: variant.subject, sent: 0, delivered: 0, opened: 0, clicked: 0, openRate: 0, clickRate: 0, winner: test.winner === index }));
  const ended = campaign.status === 'CANCELLED' ? ' (cancelled: the rest is not sent)' : '';
  return (
    <section className="panel" aria-labelledby="ab-title">
      <h2 id="ab-title">A/B test</h2>
      <p role="status">
        <strong>{test.phase ? PHASES[test.phase] : 'Not started'}</strong>
        {ended} — {test.samplePercent} % sample, winner by unique {test.metric === 'opens' ? 'open' : 'click'} rate after {test.waitMinutes} min.
        {test.phase === 'WAITING' && test.waitUntil && campaign.status !== 'CANCELLED' && (
          <>
            {' '}
            Picks the winner in <Countdown until={test.waitUntil} /> ({formatDateTime(test.waitUntil)}).
          </>
        )}
        {test.phase === 'WINNER' && test.winner !== null && (
          <>
            {' '}
            Winner: <strong>{letter(test.winner)}</strong> ({test.pickedBy === 'hand' ? 'picked by hand' : 'highest rate'}).
          </>
        )}
      </p>
      <ErrorNote error={pick.error} />
      <DataTable
        caption="Subjects and their sample's figures"
        columns={[
          {
            header: 'Variant',
            cell: (row) => (
              <>
                {letter(row.variant)} {row.winner && <span className="badge badge-sent">winner</span>}
              </>
            ),
          },
          { header: 'Subject', cell: (row) => <span className="record">{row.subject}</span> },
          { header: 'Sent', cell: (row) => row.sent },
          { header: 'Delivered', cell: (row) => row.delivered },
          { header: 'Opened', cell: (row) => `${row.opened} (${row.openRate} %)` },
          { header: 'Clicked', cell: (row) => `${row.clicked} (${row.clickRate} %)` },
          {
            header: 'Winner',
            cell: (row) =>
              waiting ? (
                <ConfirmButton
                  disabled={pick.isPending}
                  question={{ title: `Pick subject ${letter(row.variant)}?`, message: `The rest of the audience gets “${row.subject}” now; the wait ends.`, confirmLabel: `Send ${letter(row.variant)} to the rest` }}
                  onConfirm={() => pick.mutate(row.variant)}
                >
                  Pick this winner<span className="visually-hidden"> ({letter(row.variant)})</span>
                </ConfirmButton>
              ) : row.winner ? (
                'Yes'
              ) : (
                '—'
              ),
          },
        ]}
        rows={rows}
        rowKey={(row) => String(row.variant)}
        empty="No variants."
      />
    </section>
  );
}
