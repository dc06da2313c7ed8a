import { notFoundCase, type OperationDoc } from '../http/operation-doc';
import { deletedSchema, pageSchema } from '../http/responses';
import { domainResponseSchema } from './responses';
import { createDomainSchema } from './schemas';

/** The OpenAPI entries of the sending domain routes, keyed by route key ('METHOD /path'). */
export const domainOperations: Record<string, OperationDoc> = {
  'POST /domains': {
    operationId: 'createDomain',
    tag: 'Domains',
    summary: 'Add a sending domain',
    description:
      'Registers the domain with SES (Easy DKIM); publish the returned DNS records to verify it: three DKIM CNAMEs (`<token>._domainkey.<domain>` → `<token>.dkim.amazonses.com`) plus a recommended SPF TXT (`v=spf1 include:amazonses.com ~all`) and DMARC TXT (`_dmarc.<domain>`, `v=DMARC1; p=none;`). The name is lower-cased (IDN → punycode) and must be a registrable domain or a subdomain of one (no IPs, no bare public suffix such as `co.uk`, no single labels). A domain belongs to one project: the same domain twice is 409 `DOMAIN_EXISTS`, one another project holds 409 `DOMAIN_TAKEN`.',
    body: createDomainSchema,
    bodyExample: { domain: 'mail.example.com' },
    success: { status: 201, description: 'The domain, PENDING', data: domainResponseSchema },
    errors: [
      { status: 409, code: 'DOMAIN_EXISTS', when: 'The domain is already a domain of this project' },
      { status: 409, code: 'DOMAIN_TAKEN', when: 'The domain belongs to another project' },
    ],
  },
  'GET /domains': {
    operationId: 'listDomains',
    tag: 'Domains',
    summary: 'List domains',
    description:
      'A domain that is not verified yet is refreshed from SES (at most every 2 seconds per domain, however often it is read).',
    success: { status: 200, description: 'All domains of the project (one page)', data: pageSchema(domainResponseSchema) },
  },
  'GET /domains/{id}': {
    operationId: 'getDomain',
    tag: 'Domains',
    summary: 'Get a domain',
    description:
      'A domain that is not verified yet is refreshed from SES (at most every 2 seconds per domain). Statuses: `PENDING → VERIFIED | FAILED | TEMPORARY_FAILURE`.',
    success: { status: 200, description: 'The domain', data: domainResponseSchema },
    errors: [notFoundCase('domain')],
  },
  'DELETE /domains/{id}': {
    operationId: 'deleteDomain',
    tag: 'Domains',
    summary: 'Remove a domain',
    description:
      'Removes the domain, its claim and its SES identity; sending from it (or its subdomains) is refused from the next request on.',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('domain')],
  },
};
