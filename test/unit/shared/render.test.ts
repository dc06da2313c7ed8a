import Mustache from 'mustache';
import { assertTemplateParses, renderMessage, templateView } from '../../../shared/templates/render';

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

  it('renders a partial tag empty (no partials)', () => {
    expect(renderMessage({ subject: 'a{{> p}}b', html: 'a{{> p}}b' }, { p: 'x' })).toEqual({ subject: 'ab', html: 'ab' });
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
