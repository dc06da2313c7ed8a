import { projectPartition } from '../projects/keys';

/**
 * Table keys of contacts: built here and nowhere else.
 *
 * | item          | PK              | SK                     | GSI1 (email prefix)           | GSI2 (whole domain)                      | GSI3 (subscribed)                     |
 * |---------------|-----------------|------------------------|-------------------------------|------------------------------------------|---------------------------------------|
 * | contact       | PROJECT#<pid>   | CONTACT#<id>           | <pid>#CONTACT_EMAILS / email  | <pid>#CONTACT_DOMAIN#<domain> / email    | <pid>#CONTACT_SUBSCRIBED#<bool> / id  |
 * | email lookup  | PROJECT#<pid>   | CONTACT_EMAIL#<email>  |                               |                                          |                                       |
 * | counters      | PROJECT#<pid>   | COUNTER#CONTACTS       |                               |                                          |                                       |
 */
export const contactKeys = {
  contact: (projectId: string, contactId: string) => ({ PK: projectPartition(projectId), SK: `CONTACT#${contactId}` }),
  contactPrefix: 'CONTACT#',
  /** The uniqueness guard for emails; read strongly consistent on every upsert. */
  emailLookup: (projectId: string, email: string) => ({ PK: projectPartition(projectId), SK: `CONTACT_EMAIL#${email}` }),
  counters: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'COUNTER#CONTACTS' }),
  byEmailPartition: (projectId: string) => `${projectPartition(projectId)}#CONTACT_EMAILS`,
  byDomainPartition: (projectId: string, domain: string) => `${projectPartition(projectId)}#CONTACT_DOMAIN#${domain}`,
  bySubscribedPartition: (projectId: string, subscribed: boolean) => `${projectPartition(projectId)}#CONTACT_SUBSCRIBED#${subscribed}`,
  /** The index attributes of a contact; they change with its email and subscription. */
  indexes: (projectId: string, contactId: string, email: string, subscribed: boolean) => ({
    GSI1PK: contactKeys.byEmailPartition(projectId),
    GSI1SK: email,
    GSI2PK: contactKeys.byDomainPartition(projectId, domainOf(email)),
    GSI2SK: email,
    GSI3PK: contactKeys.bySubscribedPartition(projectId, subscribed),
    GSI3SK: contactId,
  }),
};

export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);
