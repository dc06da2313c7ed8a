import type * as v from 'valibot';

/** An error a route answers beyond those the generator adds from the route's shape. */
export interface ErrorCase {
  status: number;
  code: string;
  when: string;
}

/**
 * How one route is documented in the OpenAPI document. Each domain writes its routes' entries
 * beside its schemas (shared/<domain>/operations.ts); shared/contract/ collects them.
 */
export interface OperationDoc {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** JSON request body (valibot, converted by its input type). */
  body?: v.GenericSchema;
  bodyExample?: unknown;
  /** Query parameters (a valibot object of strings). */
  query?: v.GenericSchema;
  /** Request headers the route reads. */
  headers?: { name: string; description: string; schema: Record<string, unknown> }[];
  /** Enveloped JSON success `{ success: true, data }`, or a raw body (no envelope). */
  success:
    | { status: number; description: string; data: v.GenericSchema; example?: unknown; /** Another success status with the same body. */ alsoStatus?: { status: number; description: string } }
    | { status: number; description: string; mediaType: string; schema: Record<string, unknown> };
  errors?: readonly ErrorCase[];
  /** Other answers that are not the JSON envelope (an HTML page for an invalid link…). */
  rawResponses?: readonly { status: number; description: string; mediaType: string }[];
}

/** The 404 of a route whose {id} names nothing in the project. */
export const notFoundCase = (what: string): ErrorCase => ({ status: 404, code: 'NOT_FOUND', when: `No ${what} with this id in the project` });

/** The 409 of a write that lost an optimistic-concurrency race. */
export const concurrentModificationCase: ErrorCase = { status: 409, code: 'CONCURRENT_MODIFICATION', when: 'The resource changed concurrently; retry' };
