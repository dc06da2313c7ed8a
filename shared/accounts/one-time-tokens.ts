import { createHash, randomBytes } from 'node:crypto';

/** Single-use tokens of invitations and password resets: 256 random bits, only the SHA-256 stored. */
export const newOneTimeToken = () => randomBytes(32).toString('base64url');
export const hashOneTimeToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** What a presented token must look like before it is hashed and looked up. */
export const ONE_TIME_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
