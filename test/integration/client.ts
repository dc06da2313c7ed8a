import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LocalStack } from '../support/local-stack';

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
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
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
