/**
 * Routes of the dashboard contract (issue #20) built on other branches (accounts: sessions,
 * me, project, keys, members, audit) and so not yet in the
 * generated document. Once a route is documented, the generated type wins (api-client.ts merges
 * with Omit), and its entry here can go.
 */
type Json<T> = { content: { 'application/json': T }; headers: { [name: string]: unknown } };
type Success<T> = Json<{ success: true; data: T }>;
type ErrorBody = Json<{ success: false; error: { code: string; message: string; statusCode: number; requestId: string; errors?: { field: string; message: string; code: string }[] } }>;
type Operation<Data, Body = never, Query = never, Path = never> = {
  parameters: ([Query] extends [never] ? { query?: never } : { query?: Query }) & { header?: never; cookie?: never } & ([Path] extends [never] ? { path?: never } : { path: Path });
  responses: { 200: Success<Data>; 201: Success<Data>; 202: Success<Data>; default: ErrorBody };
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: { content: { 'application/json': Body } } });
type Page<T> = { items: T[]; nextCursor: string | null; hasMore: boolean; total: number };
type PageQuery = { limit?: string; cursor?: string };
type Id = { id: string };

export type Role = 'OWNER' | 'MEMBER';
export interface SessionGrant {
  accessToken: string;
  expiresAt: string;
  user: { id: string; email: string; name: string | null };
  projectId: string;
  projects: { id: string; name: string; role: Role }[];
}
export interface Me {
  user: { id: string; email: string; name: string | null };
  projects: { id: string; name: string; role: Role }[];
}
export interface SessionInfo {
  id: string;
  createdAt: string;
  lastUsedAt?: string | null;
  userAgent?: string | null;
  current?: boolean;
}
export interface Project {
  id: string;
  name: string;
}
export interface ApiKey {
  id: string;
  name: string;
  kind: 'secret' | 'public';
  prefix?: string;
  createdAt: string;
  lastUsedAt: string | null;
}
export interface CreatedApiKey extends ApiKey {
  key: string;
}
export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt?: string;
}
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}
export interface AuditEntry {
  id: string;
  action: string;
  actor: { userId?: string; email?: string } | null;
  target?: string | null;
  details?: Record<string, unknown>;
  createdAt: string;
}
export interface contractPaths {
  '/dashboard/session': { post: Operation<SessionGrant, { email: string; password: string; projectId?: string }>; delete: Operation<unknown> };
  '/dashboard/session/refresh': { post: Operation<SessionGrant, { projectId?: string }> };
  '/dashboard/session/password-reset': { post: Operation<unknown, { email: string }> };
  '/dashboard/session/password-reset/confirm': { post: Operation<unknown, { token: string; password: string }> };
  '/dashboard/session/invitations/accept': { post: Operation<SessionGrant, { token: string; password: string; name?: string }> };
  '/me': { get: Operation<Me> };
  '/me/password': { patch: Operation<unknown, { currentPassword: string; newPassword: string }> };
  '/me/sessions': { get: Operation<Page<SessionInfo>, never, PageQuery>; delete: Operation<unknown> };
  '/me/sessions/{id}': { delete: Operation<unknown, never, never, Id> };
  '/project': { get: Operation<Project>; patch: Operation<Project, { name: string }> };
  '/keys': { get: Operation<Page<ApiKey>, never, PageQuery>; post: Operation<CreatedApiKey, { name: string; kind: 'secret' | 'public' }> };
  '/keys/{id}/rotate': { post: Operation<CreatedApiKey, never, never, Id> };
  '/keys/{id}': { delete: Operation<unknown, never, never, Id> };
  '/members': { get: Operation<Page<Member>, never, PageQuery> };
  '/members/{userId}': { patch: Operation<Member, { role: Role }, never, { userId: string }>; delete: Operation<unknown, never, never, { userId: string }> };
  '/members/invitations': { get: Operation<Page<Invitation>, never, PageQuery>; post: Operation<Invitation, { email: string; role: Role }> };
  '/members/invitations/{id}': { delete: Operation<unknown, never, never, Id> };
  '/audit': { get: Operation<Page<AuditEntry>, never, PageQuery> };
}
