import { convert, type HtmlToTextOptions } from 'html-to-text';

/**
 * The plain-text part of a mail that gives none, from its rendered HTML (html-to-text): links
 * kept as `text [url]` (the URL alone when it is the text), images dropped, table cells as
 * blocks (mail layouts are tables), lines wrapped at 78 characters (RFC 5322's recommendation).
 */
const options: HtmlToTextOptions = {
  wordwrap: 78,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'td', format: 'block' },
    { selector: 'th', format: 'block' },
  ],
};

export const plainTextOf = (html: string): string => convert(html, options);

/**
 * Marketing mail's text part carries its unsubscribe link as its HTML does through
 * {{unsubscribeUrl}}: appended when the text does not already hold it.
 */
export const withUnsubscribeLink = (text: string, url: string): string => (text.includes(url) ? text : `${text.trimEnd()}\n\nUnsubscribe: ${url}\n`);
