import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm';
import { PageHeader } from '../../components/page-header';
import { TemplateWorkbench, type TemplateContent } from '../../components/template-workbench';
import { ErrorNote, Field, Loading, SelectField, StatusBadge } from '../../components/ui';
import { useLeaveGuard } from '../../components/unsaved-changes';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../../lib/session';
import { LocalTimeSendForm, ZonesPanel } from './local-time-delivery';
import {
  useCampaign,
  useCampaignAudience,
  useCancelCampaign,
  useCreateCampaign,
  useDeleteCampaign,
  useDomainOptions,
  useMarketingTemplates,
  useSegmentOptions,
  useSendCampaign,
  useTestCampaign,
  useUpdateCampaign,
  type Campaign,
  type CampaignInput,
} from './api';
import { SpreadField } from './spread-panel';
import { abDraftOf, abInputOf, AbTestFields, type AbDraft } from './ab-test-panel';

import { ApprovalPanel, awaitsApproval } from './approval-panel';
import { costSentence, formatUsd } from './estimated-cost';

const CampaignReport = lazy(() => import('./campaign-report'));

interface Draft {
  name: string;
  mode: 'template' | 'own';
  templateId: string;
  content: TemplateContent;
  fromName: string;
  fromLocal: string;
  fromDomain: string;
  replyTo: string;
  segmentId: string;
  /** Minutes as typed; empty: no spread. */
  spreadOverMinutes: string;
  abTest: AbDraft | null;
}

const EMPTY: Draft = { name: '', mode: 'own', templateId: '', content: { subject: '', body: '', text: null, format: 'html' }, fromName: '', fromLocal: '', fromDomain: '', replyTo: '', segmentId: '', spreadOverMinutes: '', abTest: null };

function toDraft(campaign: Campaign): Draft {
  const [local = '', domain = ''] = campaign.from?.email.split('@') ?? [];
  return {
    name: campaign.name,
    mode: campaign.templateId ? 'template' : 'own',
    templateId: campaign.templateId ?? '',
    content: { subject: campaign.subject ?? '', body: campaign.body ?? '', text: campaign.text, format: 'html' },
    fromName: campaign.from?.name ?? '',
    fromLocal: local,
    fromDomain: domain,
    replyTo: campaign.replyTo ?? '',
    segmentId: campaign.segmentId ?? '',
    spreadOverMinutes: campaign.spreadOverMinutes ? String(campaign.spreadOverMinutes) : '',
    abTest: abDraftOf(campaign.abTest),
  };
}

/** The draft as POST /campaigns takes it, or PATCH (saved: null removes a field). */
function toInput(draft: Draft, saved: boolean): CampaignInput {
  const none = saved ? null : undefined;
  const own = draft.mode === 'own';
  const from = draft.fromLocal.trim() && draft.fromDomain ? { email: `${draft.fromLocal.trim()}@${draft.fromDomain}`, ...(draft.fromName.trim() ? { name: draft.fromName.trim() } : {}) } : none;
  const fields = {
    name: draft.name,
    templateId: own ? none : draft.templateId,
    subject: own ? draft.content.subject : none,
    body: own ? draft.content.body : none,
    text: own ? (draft.content.text ?? none) : none,
    from,
    replyTo: draft.replyTo.trim() || none,
    segmentId: draft.segmentId || none,
    spreadOverMinutes: draft.spreadOverMinutes.trim() ? Number(draft.spreadOverMinutes) : none,
    abTest: draft.abTest ? abInputOf(draft.abTest) : none,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as CampaignInput;
}

/** /campaigns/new and /campaigns/:id: compose while DRAFT or SCHEDULED, the live report after. */
export function CampaignPage() {
  const { id = '' } = useParams();
  const campaign = useCampaign(id);
  if (id && campaign.isPending) return <Loading what="the campaign" />;
  if (id && campaign.error) return <ErrorNote error={campaign.error} />;
  const saved = campaign.data;
  if (saved && saved.status !== 'DRAFT' && saved.status !== 'SCHEDULED') {
    return (
      <Suspense fallback={<Loading what="the campaign" />}>
        <CampaignReport campaign={saved} />
      </Suspense>
    );
  }
  return <Compose key={saved ? `${saved.id}-${saved.updatedAt}` : 'new'} saved={saved} />;
}

function Compose({ saved }: { saved: Campaign | undefined }) {
  const navigate = useNavigate();
  const id = saved?.id ?? '';
  const [initial, setInitial] = useState<Draft>(() => (saved ? toDraft(saved) : EMPTY));
  const [draft, setDraft] = useState<Draft>(initial);
  const create = useCreateCampaign();
  const update = useUpdateCampaign(id);
  const remove = useDeleteCampaign(id);
  const templates = useMarketingTemplates();
  const segments = useSegmentOptions();
  const domains = useDomainOptions();
  const save = saved ? update : create;
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useLeaveGuard(dirty && !save.isPending);
  const set = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));
  const verified = domains.data?.items.filter((domain) => domain.status === 'VERIFIED').map((domain) => domain.domain) ?? [];
  const mode = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(toInput(draft, Boolean(saved)) as never, {
      onSuccess: (campaign: Campaign) => {
        setInitial(draft);
        if (!saved) navigate(`/campaigns/${campaign.id}`, { replace: true });
      },
    });
  };

  return (
    <>
      <PageHeader title={saved ? saved.name : 'New campaign'}>
        {saved && <StatusBadge status={saved.status} />}
        {saved?.status === 'DRAFT' && (
          <ConfirmButton
            className="danger"
            question={{ title: 'Delete this campaign?', message: `${saved.name} is removed for good.`, confirmLabel: 'Delete campaign' }}
            onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/campaigns') })}
          >
            Delete
          </ConfirmButton>
        )}
      </PageHeader>
      <form className="stack" onSubmit={submit} aria-label="Campaign">
        <div className="form-grid">
          <Field label="Name" value={draft.name} onChange={(event) => set({ name: event.target.value })} required maxLength={200} />
          <Field label="From name" value={draft.fromName} onChange={(event) => set({ fromName: event.target.value })} maxLength={200} />
          <div className="from-address">
            <Field label="From address" value={draft.fromLocal} onChange={(event) => set({ fromLocal: event.target.value })} placeholder="news" hint={draft.mode === 'template' ? "Empty: the template's sender" : undefined} />
            <SelectField
              label="Verified domain"
              value={draft.fromDomain}
              onChange={(event) => set({ fromDomain: event.target.value })}
              options={[['', verified.length ? 'Choose a domain' : 'No verified domain'], ...verified.map((domain) => [domain, `@${domain}`] as const)]}
            />
          </div>
          <Field label="Reply-to" type="email" value={draft.replyTo} onChange={(event) => set({ replyTo: event.target.value })} />
          <SelectField
            label="Audience"
            value={draft.segmentId}
            onChange={(event) => set({ segmentId: event.target.value })}
            options={[['', 'Every subscribed contact'], ...(segments.data?.items ?? []).map((segment) => [segment.id, `Segment: ${segment.name}`] as const)]}
          />
          <SpreadField value={draft.spreadOverMinutes} onChange={(spreadOverMinutes) => set({ spreadOverMinutes })} />
        </div>
        <fieldset className="inline-choice">
          <legend>Content</legend>
          <label className="checkbox">
            <input type="radio" name={mode} checked={draft.mode === 'own'} onChange={() => set({ mode: 'own' })} />
            Written here
          </label>
          <label className="checkbox">
            <input type="radio" name={mode} checked={draft.mode === 'template'} onChange={() => set({ mode: 'template' })} />
            A marketing template
          </label>
        </fieldset>
        {draft.mode === 'template' && (
          <SelectField
            label="Template"
            value={draft.templateId}
            onChange={(event) => set({ templateId: event.target.value })}
            required
            options={[['', templates.data?.items.length ? 'Choose a template' : 'No marketing template yet'], ...(templates.data?.items ?? []).map((template) => [template.id, template.name] as const)]}
          />
        )}
        {draft.mode === 'own' ? (
          <TemplateWorkbench value={draft.content} onChange={(content) => set({ content })} allowMarkdown={false} saveError={save.error} />
        ) : (
          draft.templateId && <TemplateWorkbench value={null} templateId={draft.templateId} />
        )}
        <AbTestFields value={draft.abTest} subject={draft.content.subject} onChange={(abTest) => set({ abTest })} />
        <ErrorNote error={save.error ?? remove.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending || (!dirty && Boolean(saved))}>
            {saved ? 'Save changes' : 'Save draft'}
          </button>
          {saved && dirty && <span className="muted">Save before testing or sending.</span>}
        </div>
      </form>
      {saved && !dirty && <SendPanel campaign={saved} />}
    </>
  );
}

/** A datetime-local value (the browser's time zone) as an ISO instant, or null while incomplete. */
const localToIso = (value: string) => {
  const time = value ? new Date(value) : null;
  return time && !Number.isNaN(time.getTime()) ? time.toISOString() : null;
};

function SendPanel({ campaign }: { campaign: Campaign }) {
  const me = useSession()?.user.email ?? '';
  const [testTo, setTestTo] = useState(me);
  const [when, setWhen] = useState('');
  const audience = useCampaignAudience(campaign.id, true);
  const test = useTestCampaign(campaign.id);
  const send = useSendCampaign(campaign.id);
  const cancel = useCancelCampaign(campaign.id);
  const scheduledFor = localToIso(when);
  const recipients = audience.data?.recipients;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const blocked = awaitsApproval(campaign);
  const cost = audience.data ? ` Estimated cost: ${costSentence(audience.data.estimatedCost)}.` : '';

  return (
    <>
      <section className="panel" aria-labelledby="audience-title">
        <h2 id="audience-title">Audience</h2>
        <ErrorNote error={audience.error} />
        {audience.data ? (
          <dl className="figures">
            <div>
              <dt>Contacts</dt>
              <dd>{audience.data.contacts}</dd>
            </div>
            <div>
              <dt>Subscribed</dt>
              <dd>{audience.data.subscribed}</dd>
            </div>
            <div>
              <dt>Suppressed</dt>
              <dd>{audience.data.suppressed}</dd>
            </div>
            <div className="figure-main">
              <dt>Recipients</dt>
              <dd>{audience.data.recipients}</dd>
            </div>
            <div>
              <dt>Estimated cost</dt>
              <dd title={costSentence(audience.data.estimatedCost)}>{formatUsd(audience.data.estimatedCost.total)}</dd>
            </div>
          </dl>
        ) : (
          audience.isPending && <Loading what="the audience" />
        )}
        <p className="muted">Recipients: exactly how many emails sending now would queue (subscribed, not suppressed, each address once).</p>
      </section>

      <section className="panel" aria-labelledby="test-title">
        <h2 id="test-title">Send a test</h2>
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            test.mutate(testTo.trim());
          }}
        >
          <Field label="Test recipient" type="email" required value={testTo} onChange={(event) => setTestTo(event.target.value)} />
          <button type="submit" disabled={test.isPending}>
            Send test
          </button>
        </form>
        <ErrorNote error={test.error} />
        {test.isSuccess && (
          <p role="status" className="ok-note">
            Test sent to {test.variables}.
          </p>
        )}
      </section>

      <ApprovalPanel campaign={campaign} />

      <section className="panel" aria-labelledby="send-title">
        <h2 id="send-title">Send</h2>
        {blocked && <p className="muted">Sending and scheduling wait for the approval above.</p>}
        {campaign.status === 'SCHEDULED' && (
          <p>
            Scheduled for <strong>{formatDateTime(campaign.scheduledFor)}</strong> ({campaign.scheduledFor} UTC).
          </p>
        )}
        <ErrorNote error={send.error ?? cancel.error} />
        <div className="actions">
          <ConfirmButton
            className="primary"
            disabled={send.isPending || audience.isPending || blocked}
            question={
              recipients === undefined
                ? { title: 'Send to the whole audience?', message: `${campaign.name} goes out now to every subscribed contact of its audience (the count could not be read). This cannot be undone.`, confirmLabel: 'Send now' }
                : { title: `Send to ${recipients} recipients?`, message: `${campaign.name} goes out now to ${recipients} recipients.${cost} This cannot be undone.`, confirmLabel: `Send to ${recipients} recipients` }
            }
            onConfirm={() => send.mutate(null)}
          >
            Send now
          </ConfirmButton>
          {campaign.status === 'SCHEDULED' && (
            <ConfirmButton className="danger" disabled={cancel.isPending} question={{ title: 'Cancel the schedule?', message: `${campaign.name} goes back to a draft.`, confirmLabel: 'Cancel schedule' }} onConfirm={() => cancel.mutate()}>
              Cancel schedule
            </ConfirmButton>
          )}
        </div>
        <form
          className="inline-form schedule"
          onSubmit={(event) => {
            event.preventDefault();
            if (scheduledFor) send.mutate(scheduledFor);
          }}
        >
          <Field label={`Send at (${zone})`} type="datetime-local" required value={when} onChange={(event) => setWhen(event.target.value)} hint={scheduledFor ? `${scheduledFor.slice(0, 16).replace('T', ' ')} UTC` : 'Your time zone; UTC shown once chosen'} />
          <button type="submit" disabled={send.isPending || !scheduledFor || blocked}>
            {campaign.status === 'SCHEDULED' ? 'Reschedule' : 'Schedule'}
          </button>
        </form>
        <LocalTimeSendForm campaign={campaign} />
      </section>
      {campaign.delivery && <ZonesPanel delivery={campaign.delivery} />}
      <p>
        <Link to="/campaigns">All campaigns</Link>
      </p>
    </>
  );
}
