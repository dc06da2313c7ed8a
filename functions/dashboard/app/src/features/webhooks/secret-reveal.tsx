import { CopyButton } from '../../components/ui';
import type { WebhookWithSecret } from '../../lib/api-types';

/** The signing secret of a new or rotated endpoint: shown this once, with a copy button. */
export function SecretReveal({ webhook, what, onDone }: { webhook: WebhookWithSecret; what: string; onDone: () => void }) {
  return (
    <div className="reveal" role="status">
      <p>
        {what}. Copy its signing secret now: it is shown only this once.
      </p>
      <code className="record">{webhook.secret}</code> <CopyButton text={webhook.secret} label="the signing secret" />
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
