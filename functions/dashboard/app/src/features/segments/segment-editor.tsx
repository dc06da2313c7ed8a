import './segments.css';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Field, Loading } from '../../components/ui';
import { useCreateSegment, useEventNames, useSegment, useSegmentPreview, useUpdateSegment } from './api';
import { FilterBuilder } from './filter-builder';
import { fromFilters, newCondition, newGroup, toFilters, type GroupDraft } from './filter-model';

/** /segments/new */
export function NewSegmentPage() {
  const navigate = useNavigate();
  const create = useCreateSegment((segment) => navigate(`/segments/${segment.id}`));
  return (
    <SegmentForm
      title="New segment"
      initial={{ name: '', filters: newGroup('AND', [newCondition()]), trackMembership: false }}
      saving={create.isPending}
      error={create.error}
      onSave={(input) => create.mutate(input)}
    />
  );
}

/** /segments/:id/edit: name and filters (tracked membership is fixed at creation). */
export function EditSegmentPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const segment = useSegment(id);
  const update = useUpdateSegment(id, () => navigate(`/segments/${id}`));
  if (segment.isPending) return <Loading what="the segment" />;
  if (segment.error) return <ErrorNote error={segment.error} />;
  const { name, filters, trackMembership } = segment.data;
  return (
    <SegmentForm
      title={`Edit ${name}`}
      initial={{ name, filters: fromFilters(filters), trackMembership }}
      fixedTracking
      saving={update.isPending}
      error={update.error}
      onSave={({ name: nextName, filters: nextFilters }) => update.mutate({ name: nextName, filters: nextFilters })}
    />
  );
}

interface FormProps {
  title: string;
  initial: { name: string; filters: GroupDraft; trackMembership: boolean };
  fixedTracking?: boolean;
  saving: boolean;
  error: unknown;
  onSave: (input: { name: string; filters: NonNullable<ReturnType<typeof toFilters>['filters']>; trackMembership: boolean }) => void;
}

function SegmentForm({ title, initial, fixedTracking = false, saving, error, onSave }: FormProps) {
  const [name, setName] = useState(initial.name);
  const [draft, setDraft] = useState(initial.filters);
  const [trackMembership, setTrackMembership] = useState(initial.trackMembership);
  const [tried, setTried] = useState(false);
  const converted = useMemo(() => toFilters(draft), [draft]);
  const eventNames = useEventNames();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (converted.filters && name.trim()) onSave({ name: name.trim(), filters: converted.filters, trackMembership });
  };

  return (
    <>
      <PageHeader title={title} />
      <form className="segment-form" onSubmit={submit} noValidate>
        <div className="segment-main">
          <Field label="Name" value={name} required maxLength={200} onChange={(event) => setName(event.target.value)} aria-invalid={tried && !name.trim()} />
          <label className="checkbox">
            <input type="checkbox" checked={trackMembership} disabled={fixedTracking} onChange={(event) => setTrackMembership(event.target.checked)} /> Track membership
          </label>
          <p className="hint">
            {fixedTracking
              ? 'Tracking is fixed at creation.'
              : 'Tracked: membership is kept current as contacts and events change (entered / exited events for workflows). Otherwise members are evaluated at each read.'}
          </p>
          <h2>Filter</h2>
          <FilterBuilder value={draft} onChange={setDraft} eventNames={eventNames.data?.items.map((item) => item.name) ?? []} />
          {converted.problems.length > 0 && (
            <ul className={tried ? 'error-note' : 'hint'} role={tried ? 'alert' : undefined} aria-label="What the filter still needs">
              {converted.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          <ErrorNote error={error} />
          {tried && !name.trim() && <p className="error-note">Give the segment a name.</p>}
          <div className="actions">
            <button type="submit" className="primary" disabled={saving}>
              {fixedTracking ? 'Save changes' : 'Create segment'}
            </button>
          </div>
        </div>
        <LiveCounts filters={converted.filters} />
      </form>
    </>
  );
}

/** The counts of the filter as built so far, from POST /segments/preview (nothing saved). */
function LiveCounts({ filters }: { filters: ReturnType<typeof toFilters>['filters'] }) {
  const preview = useSegmentPreview(filters);
  const figures = filters ? preview.data : undefined;
  return (
    <aside className="panel live-counts" aria-labelledby="live-counts-title">
      <h2 id="live-counts-title">Who matches now</h2>
      <dl className="counts" aria-live="polite" aria-busy={preview.isFetching}>
        <div>
          <dt>Contacts</dt>
          <dd>{figures ? figures.memberCount : '—'}</dd>
        </div>
        <div>
          <dt>Subscribed</dt>
          <dd>{figures ? figures.subscribedCount : '—'}</dd>
        </div>
      </dl>
      {!filters && <p className="hint">Complete the filter to see its counts.</p>}
      {filters && preview.isFetching && <p className="hint">Counting…</p>}
      {filters && <ErrorNote error={preview.error} />}
      {figures && figures.sample.length > 0 && (
        <>
          <h3>For example</h3>
          <ul className="sample">
            {figures.sample.map((contact) => (
              <li key={contact.id}>
                {contact.email}
                {!contact.subscribed && <span className="muted"> (unsubscribed)</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
