import * as v from 'valibot';
import { notFound } from './errors';

/** Every resource id the service hands out is a ULID (26 Crockford base32 characters). */
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * THE id of a path parameter `{id}`, on every route that names one. It also documents the
 * parameter in the OpenAPI document.
 */
export const resourceIdSchema = v.pipe(v.string(), v.regex(ULID_PATTERN), v.description('A resource id: a ULID, 26 characters'));

/**
 * The `{id}` (or another id parameter) of a request's path. Anything that is not an id names nothing, so it is the 404 of
 * an id that does not exist — and it never reaches a table key, where an over-long id is a
 * DynamoDB key-size error (a 500).
 */
export function pathId(pathParameters: Record<string, string | undefined>, resource: string, parameter = 'id'): string {
  const id = pathParameters[parameter];
  if (!v.is(resourceIdSchema, id)) throw notFound(resource);
  return id;
}
