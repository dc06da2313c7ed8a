import { markdownToHtml } from '../../../../shared/templates/markdown';

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
