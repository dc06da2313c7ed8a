import { projectPartition } from '../projects/keys';

/** Table keys of email records (one per recipient of a send): built here and nowhere else. */
export const emailKeys = {
  email: (projectId: string, emailId: string) => ({ PK: projectPartition(projectId), SK: `EMAIL#${emailId}` }),
};
