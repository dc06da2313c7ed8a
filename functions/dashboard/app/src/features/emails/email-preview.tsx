/**
 * An email's HTML, rendered only here: in a frame with an empty sandbox (no scripts, no forms,
 * no same-origin access, no top navigation) from srcdoc, so nothing in a message can reach the
 * dashboard's page, its token or its API. The frame inherits the page's Content-Security-Policy,
 * which also keeps remote images (tracking pixels) from loading.
 */
export default function EmailPreview({ html, subject }: { html: string; subject: string }) {
  return (
    <>
      <p className="muted">Shown safely: without the email's scripts, remote images and inline styles.</p>
      <iframe className="email-preview" sandbox="" srcDoc={html} title={`Preview of ${subject || 'the email'}`} referrerPolicy="no-referrer" />
    </>
  );
}
