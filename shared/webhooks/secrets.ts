import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';

/**
 * Endpoint signing secrets are stored encrypted (AES-256-GCM) under one key per deployment:
 * WEBHOOK_SECRETS_KEY, a Secrets Manager secret the stack generates and resolves into the
 * functions' (KMS-encrypted) environment; locally a random key kept in the data folder. The
 * ciphertext is bound to its endpoint (additional authenticated data), so it cannot be copied
 * to another one. Plain secrets leave the service only in the create and rotate answers.
 */
const key = createHash('sha256').update(requiredEnv(variables.webhookSecretsKey)).digest();
const VERSION = 'v1';

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const generateSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function encryptSecret(secret: string, binding: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(binding));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
}

export function decryptSecret(stored: string, binding: string): string {
  const [version, iv, tag, ciphertext] = stored.split(':');
  if (version !== VERSION || !iv || !tag || !ciphertext) throw new Error('Not an encrypted webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64')).setAAD(Buffer.from(binding));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
}
