import * as v from 'valibot';

/**
 * An email's HTML as a mail client in dark mode shows it (Apple Mail, iOS Mail, Outlook for Mac:
 * the clients that honour the email's own dark styles), for the dark preview. A browser frame
 * cannot be told to prefer dark (Chromium's `prefers-color-scheme` in a frame follows the
 * browser, not the frame element's `color-scheme`), so the document is changed instead:
 *
 * - `prefers-color-scheme: dark` media conditions always match, `…: light` never does;
 * - the document's colour scheme is dark (a `<meta name="color-scheme">` added, or one that offers
 *   dark set to it), so an email without colours of its own gets dark defaults as those clients
 *   give it; an email that declares itself light only stays light, as they leave it.
 *
 * Nothing else changes: clients that invert colours themselves (the Gmail apps, Outlook.com) are
 * not imitated.
 */
export function darkModeHtml(html: string): string {
  const styled = html
    .replace(/\(\s*prefers-color-scheme\s*:\s*dark\s*\)/gi, '(width >= 0px)')
    .replace(/\(\s*prefers-color-scheme\s*:\s*light\s*\)/gi, '(width < 0px)');
  const meta = /<meta\b[^>]*\bname\s*=\s*["']?color-scheme["']?[^>]*>/i;
  const declared = styled.match(meta)?.[0];
  if (declared) return /\bdark\b/i.test(declared) ? styled.replace(meta, '<meta name="color-scheme" content="dark">') : styled;
  const dark = '<meta name="color-scheme" content="dark">';
  const head = /<head\b[^>]*>/i.exec(styled);
  if (head) return styled.slice(0, head.index + head[0].length) + dark + styled.slice(head.index + head[0].length);
  return dark + styled;
}

/** GET /templates/previews/{token}'s query: `scheme=dark` serves darkModeHtml (any other value: the email as rendered). */
export const previewQuerySchema = v.object({
  scheme: v.optional(v.pipe(v.picklist(['light', 'dark']), v.description('`dark`: the email as mail clients in dark mode that honour its dark styles show it'))),
});

/** The preview document for the scheme asked for. */
export const previewForScheme = (html: string, scheme: string | undefined) => (scheme === 'dark' ? darkModeHtml(html) : html);
