import { api, unwrap } from '../../lib/api-client';

export const requestPasswordReset = (email: string) => unwrap(api.POST('/dashboard/session/password-reset', { body: { email } }));

export const confirmPasswordReset = (body: { token: string; password: string }) => unwrap(api.POST('/dashboard/session/password-reset/confirm', { body }));
