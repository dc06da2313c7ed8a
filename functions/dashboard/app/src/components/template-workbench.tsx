import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import { api, unwrap, type ApiError } from '../lib/api-client';
import type { RenderedTemplate } from '../lib/api-types';
import type { LineError } from './code-editor';
import { ErrorNote, Field, Loading } from './ui';

const CodeEditor = lazy(() => import('./code-editor'));

export type TemplateFormat = 'html' | 'markdown';

/** What a template or a campaign's own content is made of. */
export interface TemplateContent {
  subject: string;
  body: string;
  /** null: the plain-text part is made from the rendered body. */
  text: string | null;
  format: TemplateFormat;
}

/** What POST /templates/render renders: a saved template, or a draft. */
export type RenderSource = { templateId: string } | TemplateContent;

/** The variables every render knows, offered after `{{` in the editors. */
const BASE_VARIABLES = ['email', 'contact.email', 'contact.id', 'contact.data.', 'unsubscribeUrl'] as const;

export const renderKeys = {
  all: ['templates', 'render'] as const,
  one: (body: object) => [...renderKeys.all, body] as const,
};

/** A value that settles `delay` ms after it last changed (the preview renders what you stopped typing). */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

function renderBody(source: RenderSource, as: { email: string; data: Record<string, unknown> }) {
  const content =
    'templateId' in source
      ? { templateId: source.templateId }
      : { subject: source.subject, body: source.body, format: source.format, ...(source.text !== null ? { text: source.text } : {}) };
  return { ...content, data: as.data, ...(as.email ? { email: as.email } : {}) };
}

/** POST /templates/render: what a send would send, and the preview URL that shows it. */
export function useRenderedPreview(source: RenderSource | null, as: { email: string; data: Record<string, unknown> }) {
  const body = useDebounced(useMemo(() => (source ? renderBody(source, as) : null), [source, as]), 500);
  const ready = body !== null && ('templateId' in body || (Boolean(body.subject) && Boolean(body.body)));
  return useQuery({
    queryKey: renderKeys.one(body ?? {}),
    queryFn: () => unwrap(api.POST('/templates/render', { body: body! })),
    enabled: ready,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

type Rendered = RenderedTemplate;

function parseData(text: string): Record<string, unknown> | string {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : 'Sample data must be a JSON object.';
  } catch {
    return 'Sample data is not valid JSON.';
  }
}

const fieldErrors = (error: unknown, field: string): LineError[] => ((error as ApiError | null)?.errors ?? []).filter((entry) => entry.field === field);

interface WorkbenchProps {
  /** The content being written; null when rendering a saved template as it is (`templateId`). */
  value: TemplateContent | null;
  onChange?: (value: TemplateContent) => void;
  /** Renders the saved template when there is no own content. */
  templateId?: string | undefined;
  /** Markdown is offered where the API stores `format` (templates). */
  allowMarkdown?: boolean;
  /** An error of the last save: INVALID_TEMPLATE's lines are shown in the editors too. */
  saveError?: unknown;
}

/**
 * The template editor and its live preview, shared by Templates and Campaigns: subject, the body
 * in HTML or Markdown in CodeMirror (mustache variables offered as you type, INVALID_TEMPLATE
 * errors at their line), the plain-text part (generated or written), and the preview.
 */
export function TemplateWorkbench({ value, onChange, templateId, allowMarkdown = true, saveError }: WorkbenchProps) {
  const [previewEmail, setPreviewEmail] = useState('');
  const [dataText, setDataText] = useState('{\n  "firstName": "Sample"\n}');
  const data = useMemo(() => parseData(dataText), [dataText]);
  const as = useMemo(() => ({ email: previewEmail.trim(), data: typeof data === 'string' ? {} : data }), [previewEmail, data]);
  const source: RenderSource | null = value ?? (templateId ? { templateId } : null);
  const rendered = useRenderedPreview(source, as);
  const error = rendered.error ?? saveError;
  const variables = useMemo(() => [...BASE_VARIABLES, ...Object.keys(as.data), ...Object.keys(as.data).map((key) => `data.${key}`)], [as.data]);
  // Stable while the error is: a new list each render would re-mark the editor at every keystroke.
  const bodyErrors = useMemo(() => fieldErrors(error, 'body'), [error]);
  const textErrors = useMemo(() => fieldErrors(error, 'text'), [error]);
  const set = (changes: Partial<TemplateContent>) => value && onChange?.({ ...value, ...changes });
  const textId = useId();

  return (
    <div className="workbench">
      <div className="workbench-editor">
        {value && (
          <>
            <Field label="Subject" value={value.subject} onChange={(event) => set({ subject: event.target.value })} required maxLength={998} />
            {fieldErrors(error, 'subject').map((entry) => (
              <p key={entry.message} className="field-error">
                {entry.message}
              </p>
            ))}
            {allowMarkdown && (
              <fieldset className="inline-choice">
                <legend>Body written in</legend>
                {(['html', 'markdown'] as const).map((format) => (
                  <label key={format} className="checkbox">
                    <input type="radio" name={`${textId}-format`} checked={value.format === format} onChange={() => set({ format })} />
                    {format === 'html' ? 'HTML' : 'Markdown'}
                  </label>
                ))}
              </fieldset>
            )}
            <div className="field">
              <span className="field-label">Body ({value.format === 'html' ? 'HTML' : 'Markdown'})</span>
              <Suspense fallback={<Loading what="the editor" />}>
                <CodeEditor value={value.body} onChange={(body) => set({ body })} language={value.format} label="Body" variables={variables} errors={bodyErrors} />
              </Suspense>
            </div>
            <fieldset className="inline-choice">
              <legend>Plain-text part</legend>
              <label className="checkbox">
                <input type="radio" name={`${textId}-text`} checked={value.text === null} onChange={() => set({ text: null })} />
                Generated from the body
              </label>
              <label className="checkbox">
                <input type="radio" name={`${textId}-text`} checked={value.text !== null} onChange={() => set({ text: rendered.data?.text ?? '' })} />
                My own
              </label>
            </fieldset>
            {value.text !== null ? (
              <Suspense fallback={<Loading what="the editor" />}>
                <CodeEditor value={value.text} onChange={(text) => set({ text })} language="text" label="Plain-text part" variables={variables} errors={textErrors} />
              </Suspense>
            ) : (
              <pre className="text-part" tabIndex={0} role="region" aria-label="Generated plain-text part">
                {rendered.data?.text ?? ''}
              </pre>
            )}
          </>
        )}
        <details className="panel">
          <summary>Preview as</summary>
          <div className="stack">
            <Field label="Contact's email" hint="Render as this contact ({{contact.*}}); empty: sample data only." type="email" value={previewEmail} onChange={(event) => setPreviewEmail(event.target.value)} />
            <div className="field">
              <label htmlFor={`${textId}-data`}>Sample data (JSON)</label>
              <textarea id={`${textId}-data`} rows={4} value={dataText} onChange={(event) => setDataText(event.target.value)} aria-describedby={`${textId}-data-error`} />
              <small id={`${textId}-data-error`} className="field-error">
                {typeof data === 'string' ? data : ''}
              </small>
            </div>
          </div>
        </details>
      </div>
      <div className="workbench-preview">
        {rendered.error ? <ErrorNote error={rendered.error} /> : null}
        {rendered.isFetching && !rendered.data && <Loading what="the preview" />}
        {rendered.data && <PreviewFrames rendered={rendered.data} />}
        {!rendered.data && !rendered.isFetching && !rendered.error && <p className="muted">The preview shows here once there is a subject and a body.</p>}
      </div>
    </div>
  );
}

/** The preview URL's dark rendering (the API's `scheme=dark`). */
export const darkPreviewUrl = (previewUrl: string) => `${previewUrl}${previewUrl.includes('?') ? '&' : '?'}scheme=dark`;

const WIDTHS = [
  ['desktop', 'Desktop'],
  ['mobile', '375 px'],
] as const;

/**
 * The rendered email from its `previewUrl`: its own document, from the API, with its own CSP
 * (sandbox, no script; inline styles and remote images allowed), in a frame with an empty sandbox.
 * Dark mode asks for the same preview with `scheme=dark`: the API serves it as a mail client in
 * dark mode shows it (shared/templates/dark-mode.ts: the email's own dark styles on, a dark
 * colour scheme), since a frame cannot be told to prefer dark.
 */
function PreviewFrames({ rendered }: { rendered: Rendered }) {
  const [width, setWidth] = useState<'desktop' | 'mobile'>('desktop');
  const [dark, setDark] = useState(false);
  return (
    <section aria-label="Preview" className="preview">
      <div className="preview-bar">
        <div className="segmented" role="group" aria-label="Preview width">
          {WIDTHS.map(([key, label]) => (
            <button key={key} type="button" aria-pressed={width === key} onClick={() => setWidth(key)}>
              {label}
            </button>
          ))}
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={dark} onChange={(event) => setDark(event.target.checked)} />
          Dark mode
        </label>
      </div>
      <p className="preview-subject">
        <span className="muted">Subject: </span>
        {rendered.subject}
      </p>
      {/* Focusable: at 375 px the desktop frame scrolls sideways inside it, by keyboard too. */}
      <div className={`preview-stage preview-${width}${dark ? ' preview-dark' : ''}`} tabIndex={0} role="region" aria-label="Rendered email">
        <iframe key={`${rendered.previewUrl}-${dark}`} src={dark ? darkPreviewUrl(rendered.previewUrl) : rendered.previewUrl} sandbox="" referrerPolicy="no-referrer" title={`Preview of ${rendered.subject}`} />
      </div>
      <details>
        <summary>Plain-text part</summary>
        <pre className="text-part">{rendered.text}</pre>
      </details>
    </section>
  );
}
