import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '../observability/tracer';

/**
 * SDK clients are created once per container. Endpoints come from the standard
 * AWS_ENDPOINT_URL_<SERVICE> variables, which is how the local stack points them at emulators.
 */
export const dynamoDb = traced(new DynamoDBClient({}));

export const documentClient = DynamoDBDocumentClient.from(dynamoDb, {
  marshallOptions: { removeUndefinedValues: true },
});
