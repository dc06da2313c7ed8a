import Mustache from 'mustache';
import { plainTextOf, withUnsubscribeLink } from '../../../../shared/templates/plain-text';
import { assertTemplateParses, renderMessage, templateErrors, templateHtml, templateView } from '../../../../shared/templates/render';

const contact = { id: 'C1', email: 'jane@example.com', data: { plan: 'pro' } };

describe('renderMessage', () => {
  it('HTML-escapes double braces in the body and inserts triple braces raw', () => {
    // Act
    const { html } = renderMessage({ subject: 's', html: '<p>{{name}}</p>{{{raw}}}' }, { name: '<script>alert(1)</script>', raw: '<b>bold</b>' });

    // Assess
    expect(html).toBe('<p>&lt;script&gt;alert(1)&lt;&#x2F;script&gt;</p><b>bold</b>');
  });

  it('does not HTML-escape the subject, and leaves the global escape alone', () => {
    const escapeBefore = Mustache.escape;

    const { subject, html } = renderMessage({ subject: '{{a}} & {{b}} <3', html: '{{a}}' }, { a: 'Tom & Jerry', b: '"quoted"' });

    expect(subject).toBe('Tom & Jerry & "quoted" <3');
    expect(html).toBe('Tom &amp; Jerry');
    expect(Mustache.escape).toBe(escapeBefore);
    expect(Mustache.render('{{a}}', { a: '&' })).toBe('&amp;');
  });

  it('resolves dotted paths and sections, and renders missing variables empty', () => {
    const view = templateView({ items: [{ n: 1 }, { n: 2 }], flag: true }, contact);

    const { subject, html } = renderMessage(
      { subject: 'Hi {{contact.email}}{{missing}}', html: '{{contact.data.plan}}|{{#items}}[{{n}}]{{/items}}|{{#flag}}yes{{/flag}}|{{^none}}none{{/none}}|{{a.b.c}}' },
      view,
    );

    expect(subject).toBe('Hi jane@example.com');
    expect(html).toBe('pro|[1][2]|yes|none|');
  });

  it('resolves only the view own keys, never Object.prototype members', () => {
    const { subject, html } = renderMessage(
      { subject: '{{constructor}}{{toString}}{{__proto__}}', html: '{{constructor.constructor}}|{{#isPrototypeOf}}x{{/isPrototypeOf}}|{{__defineGetter__}}|{{name.constructor}}|{{obj}}|{{list}}|{{__proto__}}{{name}}' },
      JSON.parse('{ "name": "n", "obj": { "a": 1 }, "list": ["a", "b"], "__proto__": { "x": 1 } }'),
    );

    expect(subject).toBe('');
    expect(html).toBe('||||[object Object]|a,b|n');
  });

  it('renders a text template with the same variables, nothing HTML-escaped', () => {
    // Act
    const { html, text } = renderMessage({ subject: 's', html: '<p>{{name}}</p>', text: 'Hi {{name}}, plan {{contact.data.plan}}' }, templateView({ name: 'Tom & <Jerry>' }, contact));

    // Assess
    expect(html).toBe('<p>Tom &amp; &lt;Jerry&gt;</p>');
    expect(text).toBe('Hi Tom & <Jerry>, plan pro');
  });

  it('makes the text part from the rendered HTML when there is no text template', () => {
    // Act
    const { text } = renderMessage(
      { subject: 's', html: '<h2>Hello {{name}}</h2><p>Read <a href="https://acme.test/{{plan}}?a=1&amp;b=2">the news</a>.<img src="https://acme.test/logo.png" alt="Logo"></p><p>A<br>B</p>' },
      { name: 'Ada & co', plan: 'pro' },
    );

    // Assess
    expect(text).toBe('HELLO ADA & CO\n\nRead the news [https://acme.test/pro?a=1&b=2].\n\nA\nB');
  });

  it('renders a partial tag empty (no partials)', () => {
    expect(renderMessage({ subject: 'a{{> p}}b', html: 'a{{> p}}b' }, { p: 'x' })).toEqual({ subject: 'ab', html: 'ab', text: 'ab' });
  });

  it('throws 422 INVALID_TEMPLATE on the text field for a text that does not parse', () => {
    expect(() => renderMessage({ subject: 's', html: 'h', text: '{{#open}}' }, {})).toThrow(expect.objectContaining({ statusCode: 422, errors: [expect.objectContaining({ field: 'text', code: 'INVALID_TEMPLATE' })] }));
    expect(() => assertTemplateParses({ text: 'Hi {{name' })).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ field: 'text', code: 'INVALID_TEMPLATE' })] }));
  });

  it('throws 422 INVALID_TEMPLATE for a template that does not parse', () => {
    expect(() => renderMessage({ subject: 'ok', html: '{{#open}}' }, {})).toThrow(expect.objectContaining({ statusCode: 422 }));
  });
});

describe('assertTemplateParses', () => {
  it('accepts valid templates and absent fields', () => {
    expect(() => assertTemplateParses({ subject: 'Hi {{name}}', body: '{{#a}}{{{b}}}{{/a}}' })).not.toThrow();
    expect(() => assertTemplateParses({})).not.toThrow();
  });

  it.each([
    ['subject', { subject: 'Hi {{name' }, 'Unclosed tag at 9'],
    ['body', { body: '<p>{{#open}}</p>' }, 'Unclosed section "open" at 16'],
    ['body', { subject: 'ok', body: '{{/close}}' }, 'Unopened section "close" at 0'],
    ['body', { body: '{{#a}}{{hasOwnProperty}}{{/a}}' }, 'hasOwnProperty may not be used as a variable name'],
  ])('reports the %s field with mustache message', (field, fields, message) => {
    let error: unknown;
    try {
      assertTemplateParses(fields);
    } catch (caught) {
      error = caught;
    }

    expect(error).toMatchObject({ statusCode: 422, code: 'VALIDATION_ERROR', errors: [{ field, code: 'INVALID_TEMPLATE', message }] });
  });
});

describe('templateView', () => {
  it('exposes data keys, the contact, and the contact email unless data has one', () => {
    expect(templateView({ plan: 'x' }, contact)).toEqual({ plan: 'x', email: 'jane@example.com', contact });
    expect(templateView({ email: 'other@example.com', contact: 'ignored' }, contact)).toEqual({ email: 'other@example.com', contact });
  });
});

describe('plainTextOf', () => {
  it('leaves no markup: scripts, styles and images dropped, entities decoded, a link that is its own text shown once', () => {
    // Act
    const text = plainTextOf('<html><head><style>p { color: red }</style></head><body><script>alert(1)</script><p>1 &lt; 2 <b>bold</b> <a href="https://acme.test">https://acme.test</a></p><img src="x.png" alt="x"><ul><li>one</li><li>two</li></ul></body></html>');

    // Assess
    expect(text).toBe('1 < 2 bold https://acme.test\n\n * one\n * two');
  });

  it('puts the cells of a layout table on lines of their own and wraps at 78 characters', () => {
    // Act
    const text = plainTextOf(`<table><tr><td>left</td><td>right</td></tr></table><p>${'word '.repeat(30)}</p>`);

    // Assess
    expect(text.split('\n').slice(0, 3)).toEqual(['left', '', 'right']);
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(78);
  });
});

describe('withUnsubscribeLink', () => {
  it('appends the link unless the text holds it already', () => {
    const url = 'https://api.example.test/unsubscribe/abc.def';
    expect(withUnsubscribeLink('Hello\n\n', url)).toBe(`Hello\n\nUnsubscribe: ${url}\n`);
    expect(withUnsubscribeLink(`Bye [${url}]`, url)).toBe(`Bye [${url}]`);
  });
});

describe('templateErrors', () => {
  it('names every field that does not parse with the line where parsing failed', () => {
    // Act
    const errors = templateErrors({ subject: 'Hi {{name}}', body: '<p>one</p>\n<p>two</p>\n<p>{{#items}}three</p>', text: 'Hi\n{{/closed}}' });

    // Assess
    expect(errors).toEqual([
      { field: 'body', code: 'INVALID_TEMPLATE', message: 'Unclosed section "items" at 44', line: 3 },
      { field: 'text', code: 'INVALID_TEMPLATE', message: 'Unopened section "closed" at 3', line: 2 },
    ]);
  });

  it('gives the line of a reserved variable name', () => {
    expect(templateErrors({ body: 'a\nb\n{{hasOwnProperty}}' })).toEqual([{ field: 'body', code: 'INVALID_TEMPLATE', message: 'hasOwnProperty may not be used as a variable name', line: 3 }]);
  });

  it('answers nothing for fields that parse, null and absent ones', () => {
    expect(templateErrors({ subject: '{{a}}', body: '**{{b}}**', text: null }, 'markdown')).toEqual([]);
  });

  it('carries the line into the 422 of assertTemplateParses', () => {
    expect(() => assertTemplateParses({ body: '# Title\n\n{{#open}}' }, 'markdown')).toThrow(expect.objectContaining({ statusCode: 422, errors: [expect.objectContaining({ field: 'body', line: 3 })] }));
  });
});

describe('templateHtml', () => {
  it('renders a Markdown body to HTML, keeping its variables and escaping raw HTML', () => {
    expect(templateHtml({ body: '# Hi {{name}}\n\n<script>x</script>', format: 'markdown' })).toBe('<h1>Hi {{name}}</h1>\n&lt;script&gt;x&lt;/script&gt;');
  });

  it('leaves an HTML body as it is', () => {
    expect(templateHtml({ body: '# <b>{{name}}</b>', format: 'html' })).toBe('# <b>{{name}}</b>');
  });
});
