import * as v from 'valibot';

/**
 * POST /v1/verify. Only the shape is validated here (a 422 for a body without a string `email`);
 * whether the string is a deliverable address is the answer itself (200 with valid false).
 */
export const verifyRequestSchema = v.object({
  email: v.pipe(
    v.string('email must be a string'),
    v.minLength(1, 'email must not be empty'),
    v.maxLength(320, 'email must be at most 320 characters'),
  ),
});

export type VerifyRequest = v.InferOutput<typeof verifyRequestSchema>;
