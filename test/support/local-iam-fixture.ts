import type { CfnTemplate, Resolve } from '../../infra/local/iam/policies';

/** The fake physical names and ARNs the IAM tests resolve the template to. */
export const REGION = 'us-east-1';
export const ACCOUNT = '123456789012';
export const API_ID = 'api123';
export const AUTHORIZER_ID = 'auth1';
export const TABLE_NAME = 'mailwright';
export const TABLE_ARN = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${TABLE_NAME}`;
export const STREAM_ARN = `${TABLE_ARN}/stream/2026-01-01T00:00:00.000`;
export const CONFIGURATION_SET = 'mailwright-events';

/** A stand-in for the lead's resolver: fake but consistent physical names and ARNs per logical id. */
export function fixtureResolver(json: CfnTemplate): Resolve {
  const typeOf = (id: string) => json.Resources[id]?.Type;
  const pseudo: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::Region': REGION, 'AWS::AccountId': ACCOUNT, 'AWS::URLSuffix': 'amazonaws.com' };
  const ref = (id: string): string => {
    if (pseudo[id]) return pseudo[id];
    switch (typeOf(id)) {
      case 'AWS::DynamoDB::Table':
        return TABLE_NAME;
      case 'AWS::SQS::Queue':
        return `http://127.0.0.1:9324/${ACCOUNT}/${id}`;
      case 'AWS::S3::Bucket':
        return id.toLowerCase();
      case 'AWS::SES::ConfigurationSet':
        return CONFIGURATION_SET;
      case 'AWS::ApiGateway::RestApi':
        return API_ID;
      case 'AWS::ApiGateway::Authorizer':
        return AUTHORIZER_ID;
      default:
        return id;
    }
  };
  const getAtt = (id: string, attribute: string): string => {
    const type = typeOf(id);
    if (type === 'AWS::DynamoDB::Table') return attribute === 'StreamArn' ? STREAM_ARN : TABLE_ARN;
    if (attribute !== 'Arn') return `${id}.${attribute}`;
    switch (type) {
      case 'AWS::IAM::Role':
        return `arn:aws:iam::${ACCOUNT}:role/${id}`;
      case 'AWS::SQS::Queue':
        return `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`;
      case 'AWS::S3::Bucket':
        return `arn:aws:s3:::${id.toLowerCase()}`;
      case 'AWS::Lambda::Function':
        return functionArn(id);
      case 'AWS::Events::Rule':
        return `arn:aws:events:${REGION}:${ACCOUNT}:rule/${id}`;
      case 'AWS::Logs::LogGroup':
        return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${id}:*`;
      default:
        return `arn:aws:fake:${REGION}:${ACCOUNT}:${id}`;
    }
  };
  const resolve: Resolve = (value) => {
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value !== 'object' || value === null) return value;
    const object = value as Record<string, unknown>;
    if (typeof object.Ref === 'string') return ref(object.Ref);
    if (Array.isArray(object['Fn::GetAtt'])) return getAtt(...(object['Fn::GetAtt'] as [string, string]));
    if (Array.isArray(object['Fn::Join'])) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return (resolve(parts) as string[]).join(separator);
    }
    if (typeof object['Fn::Sub'] === 'string') {
      return object['Fn::Sub'].replace(/\$\{([^}.]+)(?:\.([^}]+))?\}/g, (_match, id: string, attribute?: string) => (attribute ? getAtt(id, attribute) : ref(id)));
    }
    return Object.fromEntries(Object.entries(object).map(([key, inner]) => [key, resolve(inner)]));
  };
  return resolve;
}

export const functionArn = (logicalId: string) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${logicalId}`;

