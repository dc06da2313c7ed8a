import createClient from 'openapi-fetch';
import { apiBaseUrl } from './base';
import { createAuthFetch } from './auth-fetch';
import type { paths } from './schema';
import { accessToken, sessionStore } from './session-store';

const auth = createAuthFetch({ apiBaseUrl, fetch: (request) => globalThis.fetch(request), getToken: accessToken, onGrant: (grant) => sessionStore.set(grant) });

/** THE API client of the app: typed from the OpenAPI document, with the session's token. */
export const api = createClient<paths>({ baseUrl: apiBaseUrl, fetch: auth.fetch });

/** Renews the session through the refresh cookie (on start, to survive a reload). */
export const renewSession = auth.renew;

/** The error envelope's parts the pages show. */
export interface ApiError {
  status: number;
  code: string;
  message: string;
  /** Each field's problem; INVALID_TEMPLATE's also names the line (1-based) where it is. */
  errors?: { field: string; message: string; line?: number | null }[];
}

/**
 * The data of an openapi-fetch result, or throws its error envelope as an ApiError (TanStack
 * Query puts it in `error`).
 */
export async function unwrap<T>(call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok) return data.data;
  const envelope = (error as { error?: { code?: string; message?: string; errors?: ApiError['errors'] } } | undefined)?.error;
  const failure: ApiError = { status: response.status, code: envelope?.code ?? 'HTTP_ERROR', message: envelope?.message ?? `The request failed (${response.status})` };
  if (envelope?.errors) failure.errors = envelope.errors;
  throw failure;
}

export const errorMessage = (error: unknown) => (error && typeof error === 'object' && 'message' in error ? String((error as { message: unknown }).message) : 'Something went wrong');
