import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, integerEnv, optionalEnv, requiredEnv } from '../../../../shared/config/env';
import { variables } from '../../../../shared/config/variables';

/** Tests run from the repository root (jest's rootDir). */
const root = path.resolve('.');

/** The functions' code: shared/ and functions/, but the dashboard's browser app, which runs in no Lambda. */
function runtimeSources(): string[] {
  return ['shared', 'functions'].flatMap((folder) =>
    readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => !file.includes(`${path.sep}dashboard${path.sep}app${path.sep}`)),
  );
}

describe('the environment variable registry', () => {
  const names = Object.values(variables).map((variable) => variable.name);

  test('names each variable once', () => {
    expect(new Set(names).size).toBe(names.length);
  });

  test('the code reads variables only through its entries: no process.env by name outside shared/config', () => {
    const byName = runtimeSources()
      .filter((file) => !file.startsWith(path.join(root, 'shared', 'config')))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/process\.env(?:\.([A-Za-z_]\w*)|\[\s*['"`]([^'"`]+)['"`]\s*\])|(?:requiredEnv|integerEnv|optionalEnv)\(\s*['"`]([^'"`]+)/g)].map(
          (match) => `${path.relative(root, file)}: ${match[1] ?? match[2] ?? match[3]}`,
        ),
      );
    expect(byName).toEqual([]);
  });

  test('a missing required variable fails at read time with a ConfigError naming it', () => {
    const saved = process.env[variables.webhookSecretsKey.name];
    delete process.env[variables.webhookSecretsKey.name];
    try {
      expect(() => requiredEnv(variables.webhookSecretsKey)).toThrow(new ConfigError('Environment variable WEBHOOK_SECRETS_KEY is required but not set'));
    } finally {
      process.env[variables.webhookSecretsKey.name] = saved;
    }
  });

  test('integer and optional variables read the same entries', () => {
    expect(optionalEnv(variables.localDnsFixtures, {})).toBeUndefined();
    expect(optionalEnv(variables.localDnsFixtures, { LOCAL_DNS_FIXTURES: 'dns.json' })).toBe('dns.json');
    expect(integerEnv(variables.importRowConcurrency, 16, { max: 64 })).toBe(16);
    process.env[variables.importRowConcurrency.name] = '65';
    try {
      expect(() => integerEnv(variables.importRowConcurrency, 16, { max: 64 })).toThrow(/IMPORT_ROW_CONCURRENCY must be an integer from 1 to 64, got "65"/);
    } finally {
      delete process.env[variables.importRowConcurrency.name];
    }
  });
});
