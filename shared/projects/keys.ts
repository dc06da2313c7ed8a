/** Table keys of projects and API keys: built here and nowhere else. */
export const projectPartition = (projectId: string) => `PROJECT#${projectId}`;

const PROJECT_PARTITION = /^PROJECT#([^#]+)$/;

/**
 * The project whose own partition a key's PK is, or undefined: stream consumers read items by
 * their keys, and partitions that extend the project's (`PROJECT#<pid>#CAMPAIGN#…`) are not it.
 */
export const projectOfPartition = (pk: unknown): string | undefined => PROJECT_PARTITION.exec(String(pk ?? ''))?.[1];

export const projectKeys = {
  project: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'PROJECT' }),
  /**
   * The API's rate window (shared/access/admission.ts): a counter every request updates, kept off
   * the project item, whose GSI1 entry (below) would be rewritten with it — one index partition
   * for every project's requests.
   */
  admission: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'ADMISSION' }),
  /** GSI1: every project, for the admin CLI's list-projects. */
  projectListing: (projectId: string) => ({ GSI1PK: 'PROJECTS', GSI1SK: projectId }),
  /** Global lookup from a key's hash to its project: the authorizer's single GetItem. */
  apiKeyByHash: (keyHash: string) => ({ PK: `APIKEY#${keyHash}`, SK: 'APIKEY' }),
  /** The project's own record of a key, to list, rotate and revoke it. */
  projectApiKey: (projectId: string, keyId: string) => ({ PK: projectPartition(projectId), SK: `APIKEY#${keyId}` }),
  projectApiKeyPrefix: 'APIKEY#',
};
