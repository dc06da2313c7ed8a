import * as v from 'valibot';
import { pageQueryEntries } from '../http/pagination';
import { eventKindsSchema } from './kinds';

const urlSchema = v.pipe(v.string('url must be a string'), v.trim(), v.minLength(1, 'url is required'), v.maxLength(2048, 'url is at most 2048 characters'));
const descriptionSchema = v.pipe(v.string('description must be a string'), v.trim(), v.maxLength(500, 'description is at most 500 characters'));

export const createWebhookSchema = v.object({
  url: urlSchema,
  events: eventKindsSchema,
  description: v.optional(descriptionSchema),
});

export const patchWebhookSchema = v.pipe(
  v.object({
    url: v.optional(urlSchema),
    events: v.optional(eventKindsSchema),
    description: v.optional(descriptionSchema),
    enabled: v.optional(v.boolean('enabled must be a boolean')),
  }),
  v.check((patch) => Object.values(patch).some((value) => value !== undefined), 'Give at least one of url, events, description, enabled'),
);

export const listDeliveriesQuerySchema = v.object({ ...pageQueryEntries });

export type CreateWebhookInput = v.InferOutput<typeof createWebhookSchema>;
export type PatchWebhookInput = v.InferOutput<typeof patchWebhookSchema>;
export type ListDeliveriesQuery = v.InferOutput<typeof listDeliveriesQuerySchema>;
