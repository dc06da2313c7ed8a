import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { KeyKind } from '../http/routes';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { updateIfStill } from '../db/transactions';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys';
import { projectKeys } from './keys';
import { queryAll } from '../db/query';
import { notFound } from '../http/errors';

export type ProjectStatus = 'ACTIVE' | 'DISABLED';

export interface Project {
  projectId: string;
  name: string;
  status: ProjectStatus;
  createdAt: string;
  /** Campaigns need a second owner's approval before they are sent or scheduled (shared/campaigns/approval.ts). */
  requireCampaignApproval: boolean;
}

/** The project's settings PATCH /project may change. */
export interface ProjectSettings {
  name?: string;
  requireCampaignApproval?: boolean;
}

/** What the authorizer learns from one GetItem on the key's hash. */
export interface ApiKeyRecord {
  keyId: string;
  projectId: string;
  kind: KeyKind;
  projectStatus: ProjectStatus;
}

export interface ApiKeySummary {
  keyId: string;
  name: string;
  kind: KeyKind;
  /** Non-secret: the key's first characters and its last four, to tell keys apart. */
  prefix: string;
  last4: string | null;
  createdAt: string;
  /** Updated by the authorizer at most once a minute (/docs "API keys"). */
  lastUsedAt: string | null;
}

export interface CreatedProject {
  projectId: string;
  secretKey: string;
  publicKey: string;
}

interface NewKey {
  key: string;
  items: Record<string, unknown>[];
}

const defaultKeyName = (kind: KeyKind) => (kind === 'secret' ? 'Secret key' : 'Public key');

function newKeyItems(projectId: string, kind: KeyKind, projectStatus: ProjectStatus, now: string, presetKey?: string, name = defaultKeyName(kind)): NewKey {
  const key = presetKey ?? generateApiKey(kind);
  const keyId = ulid();
  const keyHash = hashApiKey(key);
  return {
    key,
    items: [
      { ...projectKeys.apiKeyByHash(keyHash), keyId, projectId, kind, projectStatus, createdAt: now },
      { ...projectKeys.projectApiKey(projectId, keyId), keyId, name, kind, keyHash, prefix: displayPrefix(key), last4: key.slice(-4), createdAt: now },
    ],
  };
}

const putAll = (items: Record<string, unknown>[]) =>
  items.map((Item) => ({ Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } }));

/** Creates a project with one secret and one public key. Preset keys let the local stack pin them. */
export async function createProject(
  name: string,
  preset: { projectId?: string; secretKey?: string; publicKey?: string } = {},
): Promise<CreatedProject> {
  const projectId = preset.projectId ?? ulid();
  const now = new Date().toISOString();
  const secret = newKeyItems(projectId, 'secret', 'ACTIVE', now, preset.secretKey);
  const publicKey = newKeyItems(projectId, 'public', 'ACTIVE', now, preset.publicKey);
  const project = { ...projectKeys.project(projectId), ...projectKeys.projectListing(projectId), projectId, name, status: 'ACTIVE', createdAt: now };
  await documentClient.send(new TransactWriteCommand({ TransactItems: putAll([project, ...secret.items, ...publicKey.items]) }));
  return { projectId, secretKey: secret.key, publicKey: publicKey.key };
}

export async function getProject(projectId: string): Promise<Project | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: projectKeys.project(projectId) }));
  return Item ? toProject(Item) : undefined;
}

export async function listProjects(): Promise<Project[]> {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :projects',
    ExpressionAttributeValues: { ':projects': projectKeys.projectListing('').GSI1PK },
  });
  return items.map(toProject);
}

export async function findApiKey(key: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: projectKeys.apiKeyByHash(hashApiKey(key)) }));
  if (!Item) return undefined;
  return { keyId: Item.keyId, projectId: Item.projectId, kind: Item.kind, projectStatus: Item.projectStatus };
}

export async function listApiKeys(projectId: string): Promise<(ApiKeySummary & { keyHash: string })[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': projectKeys.project(projectId).PK, ':prefix': projectKeys.projectApiKeyPrefix },
    }),
  );
  return Items.map((item) => ({
    keyId: item.keyId,
    name: item.name ?? defaultKeyName(item.kind),
    kind: item.kind,
    prefix: item.prefix,
    last4: item.last4 ?? null,
    createdAt: item.createdAt,
    lastUsedAt: item.lastUsedAt ?? null,
    keyHash: item.keyHash,
  }));
}

export const KEY_USE_RECORD_INTERVAL_MS = 60_000;

/**
 * Records that a key was used, at most once a minute per key (a conditional write that fails
 * cheaply otherwise); the authorizer calls it on each cache miss. A key revoked meanwhile is left alone.
 */
export async function touchApiKey(projectId: string, keyId: string, now = Date.now()): Promise<void> {
  await updateIfStill({
    TableName: tableName,
    Key: projectKeys.projectApiKey(projectId, keyId),
    UpdateExpression: 'SET lastUsedAt = :now',
    ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :recent)',
    ExpressionAttributeValues: { ':now': new Date(now).toISOString(), ':recent': new Date(now - KEY_USE_RECORD_INTERVAL_MS).toISOString() },
  });
}

async function requireProject(projectId: string): Promise<Project> {
  const project = await getProject(projectId);
  if (!project) throw new Error(`No project ${projectId}`);
  return project;
}

/**
 * Issues an additional key of the same kind; the old one keeps working until revoked.
 * `presetKey` lets the local stack pin a key (LOCAL_SECRET_KEY / LOCAL_PUBLIC_KEY).
 */
export async function rotateApiKey(projectId: string, kind: KeyKind, presetKey?: string): Promise<{ keyId: string; key: string }> {
  const { key, summary } = await createApiKey(projectId, { kind }, presetKey);
  return { keyId: summary.keyId, key };
}

/** POST /keys (and the CLI's rotate-key): a new key; the key itself is answered once, only its hash is kept. */
export async function createApiKey(projectId: string, input: { kind: KeyKind; name?: string }, presetKey?: string): Promise<{ key: string; summary: ApiKeySummary }> {
  const project = await getProject(projectId);
  if (!project) throw notFound('Project');
  const now = new Date().toISOString();
  const created = newKeyItems(projectId, input.kind, project.status, now, presetKey, input.name);
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        ...putAll(created.items),
        { ConditionCheck: { TableName: tableName, Key: projectKeys.project(projectId), ConditionExpression: 'attribute_exists(PK)' } },
      ],
    }),
  );
  const item = created.items[1]!;
  return {
    key: created.key,
    summary: { keyId: item.keyId as string, name: item.name as string, kind: input.kind, prefix: item.prefix as string, last4: item.last4 as string, createdAt: now, lastUsedAt: null },
  };
}

/**
 * POST /keys/{id}/rotate: a new key of the same kind and name, and the old one revoked (at once
 * in every function; at the gateway once its cached authorizer result expires).
 */
export async function replaceApiKey(projectId: string, keyId: string): Promise<{ key: string; summary: ApiKeySummary; replaced: string }> {
  const old = (await listApiKeys(projectId)).find((key) => key.keyId === keyId);
  if (!old) throw notFound('API key');
  const created = await createApiKey(projectId, { kind: old.kind, name: old.name });
  await revokeApiKey(projectId, old.keyId);
  return { ...created, replaced: old.keyId };
}

/**
 * Revokes a key by id or by the key itself. The key id also goes into the project's revoked set,
 * which every request checks, so a revoked key stops at once even while API Gateway still holds
 * a cached authorizer result for it.
 */
export async function revokeApiKey(projectId: string, keyIdOrKey: string): Promise<{ keyId: string; name: string; kind: KeyKind }> {
  const keys = await listApiKeys(projectId);
  const target = keys.find((key) => key.keyId === keyIdOrKey || key.keyHash === hashApiKey(keyIdOrKey));
  if (!target) throw notFound('API key');
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName, Key: projectKeys.apiKeyByHash(target.keyHash) } },
        { Delete: { TableName: tableName, Key: projectKeys.projectApiKey(projectId, target.keyId) } },
        {
          Update: {
            TableName: tableName,
            Key: projectKeys.project(projectId),
            UpdateExpression: 'ADD revokedKeyIds :keyId',
            ExpressionAttributeValues: { ':keyId': new Set([target.keyId]) },
          },
        },
      ],
    }),
  );
  return { keyId: target.keyId, name: target.name, kind: target.kind };
}

/** PATCH /project: sets the given settings (at least one); 404 when the project is gone. */
export async function updateProjectSettings(projectId: string, settings: ProjectSettings): Promise<Project> {
  const entries = Object.entries(settings).filter(([, value]) => value !== undefined);
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: projectKeys.project(projectId),
        UpdateExpression: `SET ${entries.map((_, index) => `#s${index} = :s${index}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#s${index}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:s${index}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toProject(Attributes!);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw notFound('Project');
    throw error;
  }
}

/** Disabling takes effect on the next request (see shared/access/admission.ts), cached or not. */
export async function setProjectStatus(projectId: string, status: ProjectStatus): Promise<void> {
  await requireProject(projectId);
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: projectKeys.project(projectId),
      UpdateExpression: 'SET #status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    }),
  );
  // The key lookups carry the status too, so the authorizer rejects at the edge on a cache miss.
  for (const key of await listApiKeys(projectId)) {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: projectKeys.apiKeyByHash(key.keyHash),
        UpdateExpression: 'SET projectStatus = :status',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':status': status },
      }),
    );
  }
}

function toProject(item: Record<string, unknown>): Project {
  return { projectId: item.projectId as string, name: item.name as string, status: item.status as ProjectStatus, createdAt: item.createdAt as string, requireCampaignApproval: item.requireCampaignApproval === true };
}
