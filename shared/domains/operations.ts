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
    description: 'Registers the domain with SES; publish the returned DNS records to verify it.',
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
    success: { status: 200, description: 'All domains of the project (one page)', data: pageSchema(domainResponseSchema) },
  },
  'GET /domains/{id}': {
    operationId: 'getDomain',
    tag: 'Domains',
    summary: 'Get a domain',
    description: 'A pending domain\'s status is refreshed from SES.',
    success: { status: 200, description: 'The domain', data: domainResponseSchema },
    errors: [notFoundCase('domain')],
  },
  'DELETE /domains/{id}': {
    operationId: 'deleteDomain',
    tag: 'Domains',
    summary: 'Remove a domain',
    success: { status: 200, description: 'Deleted', data: deletedSchema },
    errors: [notFoundCase('domain')],
  },
};
