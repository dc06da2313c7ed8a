import { useId, useState, type InputHTMLAttributes, type SelectHTMLAttributes } from 'react';
import { errorMessage, type ApiError } from '../lib/api-client';

export function Field({ label, hint, ...input }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function SelectField({ label, options, ...select }: { label: string; options: readonly (readonly [string, string])[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An API error as the user reads it: the message, and each field's problem. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const fields = (error as ApiError).errors;
  return (
    <div className="error-note" role="alert">
      <p>{errorMessage(error)}</p>
      {fields && (
        <ul>
          {fields.map((field) => (
            <li key={field.field}>
              {field.field}: {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const Loading = ({ what }: { what: string }) => (
  <p className="loading" role="status">
    Loading {what}…
  </p>
);

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{status.toLowerCase().replace(/_/g, ' ')}</span>;
}

/** Copies text to the clipboard and says so to screen readers too. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="copy"
      aria-label={`Copy ${label}`}
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? 'Copied' : 'Copy'}
      <span className="visually-hidden" aria-live="polite">
        {copied ? `${label} copied` : ''}
      </span>
    </button>
  );
}
