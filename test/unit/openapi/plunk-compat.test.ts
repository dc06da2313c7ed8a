import { splitTrackedData } from '../../../shared/events/track';
import { markdownToHtml } from '../../../shared/templates/markdown';

describe('markdownToHtml', () => {
  it('renders Markdown to HTML', () => {
    expect(markdownToHtml('# Hello\n\nSome **bold** and a [link](https://example.com).')).toBe(
      '<h1>Hello</h1>\n<p>Some <strong>bold</strong> and a <a href="https://example.com">link</a>.</p>\n',
    );
  });

  it('escapes raw HTML written in the Markdown, inline and as a block', () => {
    const html = markdownToHtml('Hi <script>alert(1)</script>\n\n<div onclick="steal()">x</div>\n');

    expect(html).not.toContain('<script');
    expect(html).not.toContain('<div');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;div onclick=&quot;steal()&quot;&gt;x&lt;/div&gt;');
  });

  it('keeps mustache tags intact, also where Markdown would read emphasis or encode a URL', () => {
    const html = markdownToHtml('Hi {{first_name}} and {{last_name}}, [confirm]({{confirmUrl}}) {{{raw}}}');

    expect(html).toBe('<p>Hi {{first_name}} and {{last_name}}, <a href="{{confirmUrl}}">confirm</a> {{{raw}}}</p>\n');
  });
});

describe('splitTrackedData', () => {
  it('stores persistent and plain values on the contact, and every value on the event', () => {
    const split = splitTrackedData({ plan: 'pro', country: { value: 'NL', persistent: true }, page: { value: '/pricing', persistent: false } });

    expect(split.contactData).toEqual({ plan: 'pro', country: 'NL' });
    expect(split.eventData).toEqual({ plan: 'pro', country: 'NL', page: '/pricing' });
  });

  it('treats other objects as plain values and null as removing a contact key', () => {
    const split = splitTrackedData({ address: { value: 'x', city: 'Utrecht' }, flag: { value: 1, persistent: 'yes' }, old: null });

    expect(split.contactData).toEqual({ address: { value: 'x', city: 'Utrecht' }, flag: { value: 1, persistent: 'yes' }, old: null });
    expect(split.eventData).toEqual({ address: { value: 'x', city: 'Utrecht' }, flag: { value: 1, persistent: 'yes' } });
  });
});
