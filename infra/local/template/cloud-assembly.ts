import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The synthesized cloud assembly as the local stack reads it: the stack's CloudFormation template
 * and where each function's bundle (the asset CDK built) is. Everything the local stack runs —
 * functions, their environment and roles, queues, the table, event source mappings, rules, the
 * API's routes and authorizer — comes from here (infra/local/template/synth.ts writes it).
 */
// Properties are whatever each resource type declares: read field by field where used.
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Metadata?: Record<string, any>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

export interface CloudAssembly {
  directory: string;
  stackName: string;
  template: CfnTemplate;
  /** The folder of a function's bundle, from its Code.S3Key (`<asset hash>.zip`). */
  assetDirectory(s3Key: unknown): string;
}

export const ACCOUNT = '000000000000';
export const REGION = 'us-east-1';

export function readCloudAssembly(directory: string, stackName = 'Mailwright'): CloudAssembly {
  const template = JSON.parse(readFileSync(path.join(directory, `${stackName}.template.json`), 'utf8')) as CfnTemplate;
  const assets = JSON.parse(readFileSync(path.join(directory, `${stackName}.assets.json`), 'utf8')) as { files: Record<string, { source: { path: string } }> };
  return {
    directory,
    stackName,
    template,
    assetDirectory(s3Key) {
      const hash = typeof s3Key === 'string' ? s3Key.replace(/\.zip$/, '') : '';
      const asset = assets.files[hash];
      if (!asset) throw new Error(`The cloud assembly has no asset ${String(s3Key)}`);
      return path.resolve(directory, asset.source.path);
    },
  };
}

/** The resources of one type, as [logicalId, resource] pairs. */
export const resourcesOfType = (template: CfnTemplate, type: string): [string, CfnResource][] =>
  Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

/** The construct id a resource was made with (`Mailwright/SendQueue/Resource` → `SendQueue`), from CDK's path metadata. */
export function constructId(resource: CfnResource, logicalId: string): string {
  const cdkPath = resource.Metadata?.['aws:cdk:path'] as string | undefined;
  if (!cdkPath) return logicalId;
  const parts = cdkPath.split('/').slice(1);
  return parts[parts.length - 1] === 'Resource' && parts.length > 1 ? parts[parts.length - 2]! : parts[parts.length - 1]!;
}

/** The logical id a `{ Ref }` or `{ Fn::GetAtt }` (anywhere inside `value`) names, for wiring (which function an integration or mapping targets). */
export function referencedLogicalId(value: unknown, attribute?: string): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = referencedLogicalId(item, attribute);
      if (found) return found;
    }
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.Ref === 'string' && !record.Ref.startsWith('AWS::') && attribute === undefined) return record.Ref;
  const getAtt = record['Fn::GetAtt'];
  if (Array.isArray(getAtt) && (attribute === undefined || getAtt[1] === attribute)) return String(getAtt[0]);
  for (const nested of Object.values(record)) {
    const found = referencedLogicalId(nested, attribute);
    if (found) return found;
  }
  return undefined;
}
