import type { Variable } from './variables';

/**
 * Configuration is read once, at cold start, by the module that needs it. A missing or malformed
 * variable throws at import time so a misconfigured function fails loudly on its first invoke
 * instead of half-working. Only entries of the registry (shared/config/variables.ts) can be read.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function requiredEnv(variable: Variable): string {
  const value = process.env[variable.name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(`Environment variable ${variable.name} is required but not set`);
  }
  return value;
}

/** The variable's value, or undefined when it is unset. */
export function optionalEnv(variable: Variable, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[variable.name];
}

export function integerEnv(variable: Variable, fallback: number, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = process.env[variable.name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`Environment variable ${variable.name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
