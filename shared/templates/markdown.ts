import { Marked, type TokenizerAndRendererExtension } from 'marked';

/**
 * Markdown bodies (POST /v1/send with type "markdown", as Plunk's API has it) become HTML before
 * mustache renders them. Raw HTML written in the Markdown is escaped, never passed through, and
 * {{mustache}} tags survive intact: as atomic inline tokens (so `{{first_name}}` is not read as
 * emphasis) and inside link URLs (which marked percent-encodes).
 */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

const MUSTACHE_TAG = /^\{\{\{?[^{}]*\}?\}\}/;

const mustacheTag: TokenizerAndRendererExtension = {
  name: 'mustacheTag',
  level: 'inline',
  start: (source) => source.indexOf('{{'),
  tokenizer(source) {
    const match = MUSTACHE_TAG.exec(source);
    return match ? { type: 'mustacheTag', raw: match[0] } : undefined;
  },
  renderer: (token) => token.raw,
};

const markdown = new Marked({
  gfm: true,
  async: false,
  extensions: [mustacheTag],
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
  hooks: {
    postprocess: (html) => html.replace(/%7B%7B(.*?)%7D%7D/g, (_, inner: string) => `{{${decodeURIComponent(inner)}}}`),
  },
});

export function markdownToHtml(source: string): string {
  return markdown.parse(source, { async: false }) as string;
}
