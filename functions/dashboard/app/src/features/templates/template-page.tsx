import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm';
import { PageHeader } from '../../components/page-header';
import { TemplateWorkbench, type TemplateContent } from '../../components/template-workbench';
import { ErrorNote, Field, Loading, SelectField } from '../../components/ui';
import { useLeaveGuard } from '../../components/unsaved-changes';
import { useSession } from '../../lib/session';
import { useDeleteTemplate, useSaveTemplate, useSendTemplateTest, useTemplate, type TemplateInput } from './api';

type Template = NonNullable<ReturnType<typeof useTemplate>['data']>;

interface Draft {
  name: string;
  type: 'TRANSACTIONAL' | 'MARKETING';
  fromName: string;
  fromEmail: string;
  replyTo: string;
  content: TemplateContent;
}

const EMPTY: Draft = { name: '', type: 'TRANSACTIONAL', fromName: '', fromEmail: '', replyTo: '', content: { subject: '', body: '', text: null, format: 'html' } };

const TYPES = [
  ['TRANSACTIONAL', 'Transactional'],
  ['MARKETING', 'Marketing'],
] as const;

function toDraft(template: Template): Draft {
  return {
    name: template.name,
    type: template.type,
    fromName: template.from?.name ?? '',
    fromEmail: template.from?.email ?? '',
    replyTo: template.replyTo ?? '',
    content: { subject: template.subject, body: template.body, text: template.text, format: template.format },
  };
}

/** The draft as POST /templates (a new one) or PATCH (a saved one, where null removes a field) takes it. */
function toInput(draft: Draft, saved: boolean): TemplateInput {
  const from = draft.fromEmail.trim() ? { email: draft.fromEmail.trim(), ...(draft.fromName.trim() ? { name: draft.fromName.trim() } : {}) } : saved ? null : undefined;
  const replyTo = draft.replyTo.trim() || (saved ? null : undefined);
  const text = draft.content.text ?? (saved ? null : undefined);
  return {
    name: draft.name,
    type: draft.type,
    subject: draft.content.subject,
    body: draft.content.body,
    format: draft.content.format,
    ...(text !== undefined ? { text } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(replyTo !== undefined ? { replyTo } : {}),
    // Nulls only when saved (a PATCH, which takes them); useSaveTemplate sends it as such.
  } as TemplateInput;
}

/** /templates/new and /templates/:id: the editor once the template (if any) is read. */
export function TemplatePage() {
  const { id } = useParams();
  const template = useTemplate(id);
  if (id && template.isPending) return <Loading what="the template" />;
  if (id && template.error) return <ErrorNote error={template.error} />;
  return <TemplateEditor key={id ?? 'new'} id={id} saved={template.data} />;
}

function TemplateEditor({ id, saved }: { id: string | undefined; saved: Template | undefined }) {
  const navigate = useNavigate();
  const session = useSession();
  const [initial, setInitial] = useState<Draft>(() => (saved ? toDraft(saved) : EMPTY));
  const [draft, setDraft] = useState<Draft>(initial);
  const save = useSaveTemplate(id);
  const remove = useDeleteTemplate(id ?? '');
  const test = useSendTemplateTest();
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useLeaveGuard(dirty && !save.isPending);
  const set = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));
  const me = session?.user.email ?? '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(toInput(draft, Boolean(id)), {
      onSuccess: (template) => {
        setInitial(draft);
        if (!id) navigate(`/templates/${template.id}`, { replace: true });
      },
    });
  };

  return (
    <>
      <PageHeader title={id ? initial.name : 'New template'}>
        {id && (
          <ConfirmButton
            className="danger"
            question={{ title: 'Delete this template?', message: `${initial.name} is removed for good; sends that name it are refused from then on.`, confirmLabel: 'Delete template' }}
            onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/templates') })}
          >
            Delete
          </ConfirmButton>
        )}
      </PageHeader>
      <form className="stack" onSubmit={submit} aria-label="Template">
        <div className="form-grid">
          <Field label="Name" value={draft.name} onChange={(event) => set({ name: event.target.value })} required maxLength={200} />
          <SelectField label="Type" value={draft.type} onChange={(event) => set({ type: event.target.value as Draft['type'] })} options={TYPES} />
          <Field label="From name" value={draft.fromName} onChange={(event) => set({ fromName: event.target.value })} maxLength={200} />
          <Field label="From email" type="email" value={draft.fromEmail} onChange={(event) => set({ fromEmail: event.target.value })} hint="On a verified domain" />
          <Field label="Reply-to" type="email" value={draft.replyTo} onChange={(event) => set({ replyTo: event.target.value })} />
        </div>
        <TemplateWorkbench value={draft.content} onChange={(content) => set({ content })} saveError={save.error} />
        <ErrorNote error={save.error ?? remove.error} />
        {save.isSuccess && !dirty && (
          <p role="status" className="ok-note">
            Template saved.
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending || (!dirty && Boolean(id))}>
            {id ? 'Save changes' : 'Create template'}
          </button>
          {id && (
            <button type="button" disabled={test.isPending || dirty || !me} onClick={() => test.mutate({ templateId: id, to: me, data: { firstName: 'Sample' } })}>
              Send a test to {me}
            </button>
          )}
          {id && dirty && <span className="muted">Save to send a test.</span>}
        </div>
        <ErrorNote error={test.error} />
        {test.isSuccess && (
          <p role="status" className="ok-note">
            Test sent to {me}.
          </p>
        )}
      </form>
    </>
  );
}
