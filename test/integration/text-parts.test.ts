import { api, uniqueEmail } from '../support/api-client';
import { waitForEmails } from '../support/mail-viewer';

/** Every mail goes out multipart/alternative: the local SES store shows both parts (body.html, body.text). */
const FROM = 'hello@example.com';
const NEWS_HTML = '<h2>News for {{contact.email}}</h2><p>Read <a href="https://example.com/posts/{{slug}}">the post</a>.<img src="https://example.com/logo.png" alt="Logo"></p>';

describe('the plain-text part', () => {
  it('is the rendered text given on POST /v1/send, beside the HTML', async () => {
    // Prepare
    const to = uniqueEmail('text-given');

    // Act
    const response = await api('POST', '/v1/send', { body: { to, from: FROM, subject: 'Hi', body: '<p>Hello <b>{{name}}</b></p>', text: 'Hello {{name}} & co, {{contact.email}}', data: { name: 'Ada' } } });
    const [email] = await waitForEmails(to);

    // Assess
    expect(response.status).toBe(200);
    expect(email!.body).toEqual({ html: '<p>Hello <b>Ada</b></p>', text: `Hello Ada & co, ${to}` });
  });

  it('is made from the rendered HTML when the send gives none: links as text [url], images dropped, no markup', async () => {
    // Prepare
    const to = uniqueEmail('text-made');

    // Act
    await api('POST', '/v1/send', { body: { to, from: FROM, subject: 'News', body: NEWS_HTML, data: { slug: 'launch' } } });
    const [email] = await waitForEmails(to);

    // Assess
    expect(email!.body.html).toContain('<h2>');
    expect(email!.body.text).toBe(`NEWS FOR ${to.toUpperCase()}\n\nRead the post [https://example.com/posts/launch].`);
  });

  it('comes from a template: create, read, send, and without its text made from the body again', async () => {
    // Prepare
    const created = await api('POST', '/templates', { body: { name: 'Text', subject: 'Hi', body: '<p>Hi {{name}}</p>', text: 'Hi {{name}} (text)', type: 'TRANSACTIONAL', from: FROM } });
    const id = created.body.data.id;
    const [first, second] = [uniqueEmail('template-text'), uniqueEmail('template-made')];

    // Act
    const read = await api('GET', `/templates/${id}`);
    await api('POST', '/v1/send', { body: { to: first, template: id, data: { name: 'Ada' } } });
    const [withText] = await waitForEmails(first);
    const patched = await api('PATCH', `/templates/${id}`, { body: { text: null } });
    await api('POST', '/v1/send', { body: { to: second, template: id, data: { name: 'Bob' } } });
    const [withoutText] = await waitForEmails(second);

    // Assess
    expect(created.status).toBe(201);
    expect(read.body.data.text).toBe('Hi {{name}} (text)');
    expect(withText!.body.text).toBe('Hi Ada (text)');
    expect(patched.body.data.text).toBeNull();
    expect(withoutText!.body.text).toBe('Hi Bob');
  });

  it('refuses a text that is not a string or does not parse, with 422 on the text field', async () => {
    // Act
    const notString = await api('POST', '/v1/send', { body: { to: uniqueEmail('bad'), from: FROM, subject: 's', body: 'b', text: 42 } });
    const unparsable = await api('POST', '/templates', { body: { name: 'Bad', subject: 's', body: 'b', text: 'Hi {{name', type: 'TRANSACTIONAL' } });

    // Assess
    expect(notString.status).toBe(422);
    expect(notString.body.error.errors).toEqual([expect.objectContaining({ field: 'text' })]);
    expect(unparsable.status).toBe(422);
    expect(unparsable.body.error.errors).toEqual([expect.objectContaining({ field: 'text', code: 'INVALID_TEMPLATE' })]);
  });

  it('of campaign mail is the campaign text rendered for the contact, with the unsubscribe link', async () => {
    // Prepare
    const to = uniqueEmail('campaign-text');
    const created = await api('POST', '/campaigns', { body: { name: 'Text', subject: 'News', body: NEWS_HTML, text: 'News for {{contact.email}}', from: FROM } });
    const id = created.body.data.id;

    // Act
    const read = await api('GET', `/campaigns/${id}`);
    const tested = await api('POST', `/campaigns/${id}/test`, { body: { email: to } });
    const [email] = await waitForEmails(to);

    // Assess
    expect(read.body.data.text).toBe('News for {{contact.email}}');
    expect(tested.status).toBe(200);
    const unsubscribe = email!.headers!.find((header) => header.name === 'List-Unsubscribe')!.value.slice(1, -1);
    expect(email!.body.text).toBe(`News for ${to}\n\nUnsubscribe: ${unsubscribe}\n`);
  });

  it('of campaign mail without a text is made from its HTML, the unsubscribe link included once', async () => {
    // Prepare
    const to = uniqueEmail('campaign-made');
    const created = await api('POST', '/campaigns', { body: { name: 'Made', subject: 'News', body: '<p>Hi</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>', from: FROM } });

    // Act
    const patched = await api('PATCH', `/campaigns/${created.body.data.id}`, { body: { text: null } });
    await api('POST', `/campaigns/${created.body.data.id}/test`, { body: { email: to } });
    const [email] = await waitForEmails(to);

    // Assess
    expect(patched.body.data.text).toBeNull();
    const unsubscribe = email!.headers!.find((header) => header.name === 'List-Unsubscribe')!.value.slice(1, -1);
    expect(email!.body.text).toBe(`Hi\n\nUnsubscribe\n[${unsubscribe}]`);
  });
});
