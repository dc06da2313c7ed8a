import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { OpenApiDocument } from '../../shared/contract/document';
import { ContractValidator } from './contract';
import type { LocalStack } from './local-stack';

export const stack: LocalStack = JSON.parse(process.env.MAILWRIGHT_TEST_STACK ?? 'null');
if (!stack) throw new Error('Integration tests run through jest --selectProjects integration (its global setup starts the stack).');

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A black-box HTTP call to the local gateway. */
export async function api<T = any>(method: string, route: string, options: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
  const key = options.key === undefined ? stack.secretKey : options.key;
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(options.body !== undefined || options.rawBody !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  const body = text && response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text || undefined;
  (await contract()).validate(method, route, { status: response.status, contentType: response.headers.get('content-type'), body });
  return { status: response.status, headers: response.headers, body };
}

let validator: Promise<ContractValidator> | undefined;

/**
 * Every response of a documented route is checked against the OpenAPI document the stack serves
 * at GET /openapi.json (test/support/contract.ts), fetched once per test file.
 */
export function contract(): Promise<ContractValidator> {
  validator ??= fetch(`${stack.baseUrl}/openapi.json`).then(async (response) => {
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return new ContractValidator((await response.json()) as OpenApiDocument);
  });
  return validator;
}

const run = promisify(execFile);

/** Runs the admin CLI against the test stack, as a user would. */
export async function admin<T = any>(...args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'infra/admin/cli.ts', ...args, '--json'], {
    env: { ...process.env, ...stack.env, TABLE_NAME: '' },
  });
  return JSON.parse(stdout) as T;
}

export const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Polls until `check` returns a value that is not undefined, for at most `ms` (the service works asynchronously). */
export async function until<T>(check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
