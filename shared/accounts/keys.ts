import { projectPartition } from '../projects/keys';

/**
 * Table keys of dashboard accounts: built here and nowhere else (/docs "Dashboard session").
 *
 * | item                | PK                       | SK                   | GSI1                                  |
 * |---------------------|--------------------------|----------------------|---------------------------------------|
 * | user                | USER#<userId>            | USER                 |                                       |
 * | email claim         | USEREMAIL#<email>        | USEREMAIL            |                                       |
 * | membership          | PROJECT#<pid>            | MEMBER#<userId>      | USERPROJECTS#<userId> / <pid>         |
 * | session             | USER#<userId>            | SESSION#<sessionId>  |                                       |
 * | invitation          | PROJECT#<pid>            | INVITATION#<id>      |                                       |
 * | invitation token    | INVITETOKEN#<sha256>     | INVITETOKEN          |                                       |
 * | password reset      | RESETTOKEN#<sha256>      | RESETTOKEN           |                                       |
 * | sign-in throttle    | SIGNIN#<email or ip>     | THROTTLE             |                                       |
 * | audit entry         | PROJECT#<pid>            | AUDIT#<ulid>         |                                       |
 */
const userPartition = (userId: string) => `USER#${userId}`;

export const accountKeys = {
  user: (userId: string) => ({ PK: userPartition(userId), SK: 'USER' }),
  /** One per address: makes emails unique (a conditional Put in the user's transaction). */
  userEmail: (email: string) => ({ PK: `USEREMAIL#${email}`, SK: 'USEREMAIL' }),
  membership: (projectId: string, userId: string) => ({ PK: projectPartition(projectId), SK: `MEMBER#${userId}` }),
  membershipPrefix: 'MEMBER#',
  /** GSI1: a user's projects, for the session grant's project list. */
  userProjects: (userId: string, projectId: string) => ({ GSI1PK: `USERPROJECTS#${userId}`, GSI1SK: projectId }),
  session: (userId: string, sessionId: string) => ({ PK: userPartition(userId), SK: `SESSION#${sessionId}` }),
  sessionPartition: userPartition,
  sessionPrefix: 'SESSION#',
  invitation: (projectId: string, invitationId: string) => ({ PK: projectPartition(projectId), SK: `INVITATION#${invitationId}` }),
  invitationPrefix: 'INVITATION#',
  invitationToken: (tokenHash: string) => ({ PK: `INVITETOKEN#${tokenHash}`, SK: 'INVITETOKEN' }),
  passwordReset: (tokenHash: string) => ({ PK: `RESETTOKEN#${tokenHash}`, SK: 'RESETTOKEN' }),
  throttle: (subject: { email: string } | { ip: string }) => ({ PK: 'email' in subject ? `SIGNIN#EMAIL#${subject.email}` : `SIGNIN#IP#${subject.ip}`, SK: 'THROTTLE' }),
  audit: (projectId: string, auditId: string) => ({ PK: projectPartition(projectId), SK: `AUDIT#${auditId}` }),
  auditPartition: projectPartition,
  auditPrefix: 'AUDIT#',
};
