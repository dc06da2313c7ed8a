import { ACCOUNT, REGION } from './cloud-assembly';

/**
 * CloudFormation's intrinsic functions, resolved against the local resources: what `cdk deploy`
 * gets from CloudFormation, the local stack gets here. A resource's `Ref` and attributes are its
 * local physical ones (infra/local/template/resources.ts); Secrets Manager dynamic references resolve to
 * the local secret values.
 */
export interface PhysicalResource {
  ref: string;
  attributes: Record<string, string>;
}

export interface ResolverOptions {
  physical: ReadonlyMap<string, PhysicalResource>;
  /** A secret's value by its ARN (the Ref of AWS::SecretsManager::Secret). */
  secretValue: (secretArn: string) => string;
}

export type Resolve = (value: unknown) => unknown;

const pseudoParameters: Record<string, string> = {
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'Mailwright',
  'AWS::NoValue': '',
};

const DYNAMIC_SECRET = /\{\{resolve:secretsmanager:(.+?):SecretString:([^:}]*):([^:}]*):([^:}]*)\}\}/g;

export class UnresolvableError extends Error {
  override name = 'UnresolvableError';
}

export function createResolver(options: ResolverOptions): Resolve {
  const resource = (logicalId: string) => {
    const found = options.physical.get(logicalId);
    if (!found) throw new UnresolvableError(`The local stack has no resource ${logicalId}`);
    return found;
  };
  const ref = (name: string) => pseudoParameters[name] ?? resource(name).ref;
  const getAtt = (logicalId: string, attribute: string) => {
    const value = resource(logicalId).attributes[attribute];
    if (value === undefined) throw new UnresolvableError(`The local stack has no attribute ${attribute} of ${logicalId}`);
    return value;
  };
  const asString = (value: unknown) => {
    if (typeof value !== 'string') throw new UnresolvableError(`Expected a string, got ${JSON.stringify(value)}`);
    return value;
  };
  const dynamicReferences = (text: string) =>
    text.replace(DYNAMIC_SECRET, (_, arn: string, jsonKey: string) => {
      const secret = options.secretValue(arn);
      return jsonKey ? String((JSON.parse(secret) as Record<string, unknown>)[jsonKey]) : secret;
    });

  const resolve: Resolve = (value) => {
    if (typeof value === 'string') return dynamicReferences(value);
    if (Array.isArray(value)) return value.map(resolve);
    if (!value || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1) {
      const [name] = keys as [string];
      const argument = record[name];
      switch (name) {
        case 'Ref':
          return ref(asString(argument));
        case 'Fn::GetAtt': {
          const [logicalId, attribute] = Array.isArray(argument) ? argument : asString(argument).split(/\.(.+)/);
          return getAtt(String(logicalId), String(attribute));
        }
        case 'Fn::Join': {
          const [separator, items] = argument as [string, unknown[]];
          return dynamicReferences((resolve(items) as unknown[]).map(asString).join(separator));
        }
        case 'Fn::Select': {
          const [index, items] = resolve(argument) as [number | string, unknown[]];
          return items[Number(index)];
        }
        case 'Fn::Split': {
          const [separator, text] = resolve(argument) as [string, string];
          return text.split(separator);
        }
        case 'Fn::Sub': {
          const [text, variables = {}] = (Array.isArray(argument) ? argument : [argument]) as [string, Record<string, unknown>?];
          const bound = resolve(variables) as Record<string, unknown>;
          return dynamicReferences(
            text.replace(/\$\{([^}!][^}]*)\}/g, (_, expression: string) => {
              if (expression in bound) return String(bound[expression]);
              const [logicalId, attribute] = expression.split(/\.(.+)/);
              return attribute ? getAtt(logicalId!, attribute) : ref(logicalId!);
            }),
          );
        }
      }
    }
    return Object.fromEntries(Object.entries(record).map(([key, nested]) => [key, resolve(nested)]));
  };
  return resolve;
}
