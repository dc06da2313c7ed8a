/**
 * Configuration is read once, at cold start, by the module that needs it. A missing or malformed
 * variable throws at import time so a misconfigured function fails loudly on its first invoke
 * instead of half-working.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(`Environment variable ${name} is required but not set`);
  }
  return value;
}

export function integerEnv(name: string, fallback: number, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`Environment variable ${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
