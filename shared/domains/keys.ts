import { projectPartition } from '../projects/keys';

/** Table keys of sender domains: built here and nowhere else. */
export const domainKeys = {
  domain: (projectId: string, domain: string) => ({ PK: projectPartition(projectId), SK: `DOMAIN#${domain}` }),
  domainPrefix: 'DOMAIN#',
  /** Global claim: a domain belongs to at most one project, so no project sends as another's. */
  claim: (domain: string) => ({ PK: `DOMAIN#${domain}`, SK: 'CLAIM' }),
};
