import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { KeyKind } from '../http/routes';
import { documentClient } from '../aws/clients';
import { tableName } from '../db/table';
import { displayPrefix, generateApiKey, hashApiKey } from './api-keys';
import { projectKeys } from './keys';
import { queryAll } from '../db/query';

export type ProjectStatus = 'ACTIVE' | 'DISABLED';

export interface Project {
  projectId: string;
  name: string;
  status: ProjectStatus;
  createdAt: string;
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
  kind: KeyKind;
  prefix: string;
  createdAt: string;
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

function newKeyItems(projectId: string, kind: KeyKind, projectStatus: ProjectStatus, now: string, presetKey?: string): NewKey {
  const key = presetKey ?? generateApiKey(kind);
  const keyId = ulid();
  const keyHash = hashApiKey(key);
  return {
    key,
    items: [
      { ...projectKeys.apiKeyByHash(keyHash), keyId, projectId, kind, projectStatus, createdAt: now },
      { ...projectKeys.projectApiKey(projectId, keyId), keyId, kind, keyHash, prefix: displayPrefix(key), createdAt: now },
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
  return Items.map((item) => ({ keyId: item.keyId, kind: item.kind, prefix: item.prefix, createdAt: item.createdAt, keyHash: item.keyHash }));
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
  const project = await requireProject(projectId);
  const created = newKeyItems(projectId, kind, project.status, new Date().toISOString(), presetKey);
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        ...putAll(created.items),
        { ConditionCheck: { TableName: tableName, Key: projectKeys.project(projectId), ConditionExpression: 'attribute_exists(PK)' } },
      ],
    }),
  );
  return { keyId: created.items[1]!.keyId as string, key: created.key };
}

/**
 * Revokes a key by id or by the key itself. The key id also goes into the project's revoked set,
 * which every request checks, so a revoked key stops at once even while API Gateway still holds
 * a cached authorizer result for it.
 */
export async function revokeApiKey(projectId: string, keyIdOrKey: string): Promise<{ keyId: string }> {
  const keys = await listApiKeys(projectId);
  const target = keys.find((key) => key.keyId === keyIdOrKey || key.keyHash === hashApiKey(keyIdOrKey));
  if (!target) throw new Error(`Project ${projectId} has no key ${keyIdOrKey}`);
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
  return { keyId: target.keyId };
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
  return { projectId: item.projectId as string, name: item.name as string, status: item.status as ProjectStatus, createdAt: item.createdAt as string };
}
