import { createHash } from 'node:crypto';
import { gzipSync, gunzipSync } from 'node:zlib';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { toItem as contactItem } from '../../../../shared/contacts/contacts';
import { PREVIEW_POLICY, previewNotFoundPage, previewPage, readPreview, renderTemplate } from '../../../../shared/templates/preview';
import { toItem as templateItem } from '../../../../shared/templates/templates';

const ddb = mockClient(DynamoDBDocumentClient);
const P = 'P1';
const TEMPLATE_ID = '01JD0000000000000000000000';
const CONTACT_ID = '01JD0000000000000000000001';
const NOW = new Date('2026-11-25T12:00:00.000Z');

const contact = { id: CONTACT_ID, email: 'jane@example.com', subscribed: true, data: { plan: 'pro', name: '<b>Jane</b>' }, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() };
const marketingMarkdown = {
  id: TEMPLATE_ID,
  name: 'News',
  subject: 'News for {{contact.data.name}}',
  body: '# Hello {{contact.data.name}}\n\nYour plan: **{{contact.data.plan}}** ([unsubscribe]({{unsubscribeUrl}}))',
  format: 'markdown' as const,
  text: null,
  type: 'MARKETING' as const,
  from: null,
  replyTo: null,
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
};

const storedPut = () => ddb.commandCalls(PutCommand)[0]!.args[0].input.Item as Record<string, unknown>;
const tokenOf = (previewUrl: string) => previewUrl.split('/').pop()!;

describe('renderTemplate', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(PutCommand).resolves({});
  });

  it('renders a draft for data as sending does (escaped body, unescaped subject, generated text) and stores the preview for 15 minutes under the token hash', async () => {
    // Act
    const rendered = await renderTemplate(P, { subject: 'Hi {{name}}', body: '<p>Hi {{name}}</p><p>{{{raw}}}</p>', data: { name: 'Tom & <Jerry>', raw: '<i>x</i>' } }, { now: NOW });

    // Assess
    expect(rendered.subject).toBe('Hi Tom & <Jerry>');
    expect(rendered.html).toBe('<p>Hi Tom &amp; &lt;Jerry&gt;</p><p><i>x</i></p>');
    expect(rendered.text).toBe('Hi Tom & <Jerry>\n\nx');
    expect(rendered.previewUrl).toMatch(/^https:\/\/api\.example\.test\/api\/templates\/previews\/[A-Za-z0-9_-]{32}$/);
    expect(rendered.previewExpiresAt).toBe('2026-11-25T12:15:00.000Z');
    const item = storedPut();
    const token = tokenOf(rendered.previewUrl);
    expect(item.PK).toBe(`TEMPLATE_PREVIEW#${createHash('sha256').update(token).digest('hex')}`);
    expect(JSON.stringify(item)).not.toContain(token);
    expect(item.expiresAt).toBe(Date.parse('2026-11-25T12:15:00.000Z') / 1000);
    expect(gunzipSync(item.html as Buffer).toString('utf8')).toBe(rendered.html);
  });

  it('renders a saved MARKETING Markdown template as a contact, with a stand-in unsubscribe link in the HTML and the text', async () => {
    // Prepare
    ddb.on(GetCommand).callsFake((input: { Key: { SK: string } }) => ({
      Item: input.Key.SK.startsWith('TEMPLATE#') ? templateItem(P, marketingMarkdown) : contactItem(P, contact),
    }));

    // Act
    const rendered = await renderTemplate(P, { templateId: TEMPLATE_ID, contactId: CONTACT_ID }, { now: NOW });

    // Assess
    expect(rendered.subject).toBe('News for <b>Jane</b>');
    expect(rendered.html).toContain('<h1>Hello &lt;b&gt;Jane&lt;&#x2F;b&gt;</h1>');
    expect(rendered.html).toContain('<strong>pro</strong>');
    expect(rendered.html).toContain('href="https:&#x2F;&#x2F;api.example.test&#x2F;api&#x2F;unsubscribe&#x2F;preview"');
    expect(rendered.text).toContain('[https://api.example.test/api/unsubscribe/preview]');
  });

  it('adds the unsubscribe line to the text part of a MARKETING draft whose text lacks the link', async () => {
    const rendered = await renderTemplate(P, { subject: 's', body: '<p>b</p>', text: 'Plain {{name}}', type: 'MARKETING', data: { name: 'x' } }, { now: NOW });

    expect(rendered.text).toBe('Plain x\n\nUnsubscribe: https://api.example.test/api/unsubscribe/preview\n');
  });

  it('renders for an address that is no contact with no contact data', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({});

    // Act
    const rendered = await renderTemplate(P, { subject: 'For {{email}}', body: '<p>{{contact.email}} {{contact.data.plan}}</p>', email: 'new@example.com' }, { now: NOW });

    // Assess
    expect(rendered.subject).toBe('For new@example.com');
    expect(rendered.html).toBe('<p>new@example.com </p>');
  });

  it('answers 422 INVALID_TEMPLATE with each field that does not parse and its line, and stores nothing', async () => {
    // Act
    const attempt = renderTemplate(P, { subject: 'Hi {{name', body: 'line one\n\n{{#items}}', text: 'fine' });

    // Assess
    await expect(attempt).rejects.toMatchObject({
      statusCode: 422,
      code: 'INVALID_TEMPLATE',
      errors: [
        { field: 'subject', code: 'INVALID_TEMPLATE', line: 1, message: expect.stringContaining('Unclosed tag') },
        { field: 'body', code: 'INVALID_TEMPLATE', line: 3, message: expect.stringContaining('Unclosed section "items"') },
      ],
    });
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('answers 422 on the contactId field for a contact that does not exist', async () => {
    ddb.on(GetCommand).resolves({});

    await expect(renderTemplate(P, { subject: 's', body: 'b', contactId: CONTACT_ID })).rejects.toMatchObject({ statusCode: 422, errors: [{ field: 'contactId', code: 'NOT_FOUND' }] });
  });

  it('never stores a preview for longer than 15 minutes', async () => {
    const rendered = await renderTemplate(P, { subject: 's', body: 'b' }, { now: NOW, lifetimeSeconds: 3600 });

    expect(rendered.previewExpiresAt).toBe('2026-11-25T12:15:00.000Z');
  });
});

describe('readPreview', () => {
  beforeEach(() => ddb.reset());
  const token = 'A'.repeat(32);
  const item = (expiresAt: number) => ({ Item: { html: gzipSync('<p>Hi</p>'), expiresAt, projectId: P } });

  it('answers the HTML of a preview before its expiry', async () => {
    // Prepare
    ddb.on(GetCommand).resolves(item(NOW.getTime() / 1000 + 1));

    // Act
    const html = await readPreview(token, NOW);

    // Assess
    expect(html).toBe('<p>Hi</p>');
    expect(ddb.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual({ PK: `TEMPLATE_PREVIEW#${createHash('sha256').update(token).digest('hex')}`, SK: 'TEMPLATE_PREVIEW' });
  });

  it('answers nothing for an expired preview that TTL has not deleted yet', async () => {
    ddb.on(GetCommand).resolves(item(NOW.getTime() / 1000));

    expect(await readPreview(token, NOW)).toBeUndefined();
  });

  it('answers nothing for an unknown token, and does not look up a malformed one', async () => {
    ddb.on(GetCommand).resolves({});

    expect(await readPreview(token, NOW)).toBeUndefined();
    expect(await readPreview('../../etc', NOW)).toBeUndefined();
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('preview pages', () => {
  it('serve the HTML sandboxed, without script, unsniffed, uncached and without referrer', () => {
    const page = previewPage('<p>Hi</p>');

    expect(page).toEqual({ statusCode: 200, headers: expect.objectContaining({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': PREVIEW_POLICY, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }), body: '<p>Hi</p>' });
    expect(PREVIEW_POLICY).toMatch(/^sandbox; default-src 'none';/);
    expect(PREVIEW_POLICY).not.toContain('script-src');
    expect(PREVIEW_POLICY).not.toContain('allow-');
  });

  it('answer an unknown preview with a 404 page', () => {
    expect(previewNotFoundPage()).toMatchObject({ statusCode: 404, headers: { 'Content-Security-Policy': PREVIEW_POLICY } });
  });
});
