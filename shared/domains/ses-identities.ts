import { CreateEmailIdentityCommand, DeleteEmailIdentityCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { traced } from '../observability/tracer';

/** SES email identities with Easy DKIM: what a sender domain is in SES. */
const ses = traced(new SESv2Client({}));

export interface IdentityState {
  dkimTokens: string[];
  verifiedForSending: boolean;
  dkimStatus: string;
}

/** Creates the identity, or reads it when it already exists in this account (made outside Mailwright). */
export async function createIdentity(domain: string): Promise<IdentityState> {
  try {
    const created = await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
    return { dkimTokens: created.DkimAttributes?.Tokens ?? [], verifiedForSending: created.VerifiedForSendingStatus ?? false, dkimStatus: created.DkimAttributes?.Status ?? 'PENDING' };
  } catch (error) {
    if ((error as Error).name !== 'AlreadyExistsException') throw error;
    return (await getIdentity(domain))!;
  }
}

export async function getIdentity(domain: string): Promise<IdentityState | undefined> {
  try {
    const identity = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
    return { dkimTokens: identity.DkimAttributes?.Tokens ?? [], verifiedForSending: identity.VerifiedForSendingStatus ?? false, dkimStatus: identity.DkimAttributes?.Status ?? 'NOT_STARTED' };
  } catch (error) {
    if ((error as Error).name === 'NotFoundException') return undefined;
    throw error;
  }
}

export async function deleteIdentity(domain: string): Promise<void> {
  try {
    await ses.send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
  } catch (error) {
    if ((error as Error).name !== 'NotFoundException') throw error;
  }
}
