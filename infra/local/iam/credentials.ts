import { createHash } from 'node:crypto';

/**
 * Local credentials that name a role: each function (and each role AWS services assume for the
 * stack, such as the Scheduler's) calls the emulators with an access key id derived from its role
 * ARN, which the IAM front (infra/local/iam/) maps back to the role whose policies it evaluates.
 */
export interface RoleCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

export function roleCredentials(roleArn: string): RoleCredentials {
  const digest = createHash('sha256').update(roleArn).digest('hex').toUpperCase();
  return { accessKeyId: `ASIA${digest.slice(0, 16)}`, secretAccessKey: digest.slice(16, 56), sessionToken: `local-session-${digest.slice(0, 8)}` };
}

/** Which role an access key id stands for, over the given roles. */
export function principalsOf(roleArns: Iterable<string>): (accessKeyId: string) => string | undefined {
  const byKey = new Map([...roleArns].map((roleArn) => [roleCredentials(roleArn).accessKeyId, roleArn]));
  return (accessKeyId) => byKey.get(accessKeyId);
}
