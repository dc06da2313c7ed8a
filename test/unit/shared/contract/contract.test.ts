import { buildOpenApiDocument } from '../../../../shared/contract/document';
import { ContractValidator } from '../../../support/contract';

const validator = new ContractValidator(buildOpenApiDocument());
const contact = { id: '01KAQ5VZ3N4G8T2M6P0R9S7W1X', email: 'ada@example.com', subscribed: true, data: {}, createdAt: '2026-11-23T09:30:00.000Z', updatedAt: '2026-11-23T09:30:00.000Z' };
const json = 'application/json';

describe('ContractValidator', () => {
  it('accepts a response that matches the document', () => {
    expect(() => validator.validate('GET', '/contacts/01KAQ5VZ3N4G8T2M6P0R9S7W1X', { status: 200, contentType: json, body: { success: true, data: contact } })).not.toThrow();
    expect(() => validator.validate('GET', '/contacts?limit=1', { status: 200, contentType: json, body: { success: true, data: { items: [contact], nextCursor: null, hasMore: false, total: 1 } } })).not.toThrow();
  });

  it('rejects an undocumented field, a missing field and a wrong type', () => {
    const validate = (data: unknown) => () => validator.validate('GET', '/contacts/X', { status: 200, contentType: json, body: { success: true, data } });

    expect(validate({ ...contact, secret: 1 })).toThrow('must NOT have additional properties');
    const { email: _email, ...withoutEmail } = contact;
    expect(validate(withoutEmail)).toThrow("must have required property 'email'");
    expect(validate({ ...contact, createdAt: 'yesterday' })).toThrow('must match format "date-time"');
  });

  it('validates error bodies against the error envelope, including the top-level message', () => {
    const body = { success: false, message: 'Contact not found', error: { code: 'NOT_FOUND', message: 'Contact not found', statusCode: 404, requestId: 'r' }, timestamp: '2026-11-23T09:30:00.000Z' };
    const { message: _message, ...withoutMessage } = body;

    expect(() => validator.validate('GET', '/contacts/X', { status: 404, contentType: json, body })).not.toThrow();
    expect(() => validator.validate('GET', '/contacts/X', { status: 404, contentType: json, body: withoutMessage })).toThrow("must have required property 'message'");
  });

  it('rejects an undocumented success status and a wrong media type', () => {
    expect(() => validator.validate('DELETE', '/contacts/X', { status: 204, contentType: null, body: undefined })).toThrow('Contract: DELETE /contacts/{id} → 204');
    expect(() => validator.validate('GET', '/contacts/X', { status: 200, contentType: 'text/html', body: '<p>' })).toThrow('answered text/html');
  });

  it('matches static path segments before parameters and skips routes the document does not have', () => {
    expect(validator.templateOf('GET', '/events/names')).toBe('/events/names');
    expect(validator.templateOf('GET', '/segments/01X/contacts?limit=2')).toBe('/segments/{id}/contacts');
    expect(() => validator.validate('GET', '/nowhere', { status: 404, contentType: json, body: {} })).not.toThrow();
  });
});
