import { PutCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * TransactWriteItems for transactions that touch shared counter items (a project's contact or
 * event totals): DynamoDB cancels a transaction that collides with a concurrent one on the same
 * item (TransactionConflict), which is a reason to retry, with jitter, not to fail the request.
 * A cancellation for a failed condition is rethrown at once for the caller to read.
 */
export async function transactWrite(items: TransactItem[], attempts = 8): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      const conflictOnly = reasons.some((reason) => reason.Code === 'TransactionConflict') && !reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
      if (!conflictOnly || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
    }
  }
}

/**
 * Writes items all or none: one item as its own PutItem or UpdateItem — a transaction costs
 * DynamoDB about twice as much — more as a transaction (transactWrite). A failed condition is
 * thrown: ConditionalCheckFailedException for one item, TransactionCanceledException for more.
 */
export async function writeAllOrNone(items: TransactItem[]): Promise<void> {
  const [only] = items;
  if (items.length === 1 && only?.Put) await documentClient.send(new PutCommand(only.Put));
  else if (items.length === 1 && only?.Update) await documentClient.send(new UpdateCommand(only.Update as UpdateCommandInput));
  else await transactWrite(items);
}

/**
 * Writes items whose conditions make a repeat fail, all or none (writeAllOrNone); returns false
 * when a condition failed (the write was already made, or is not due).
 */
export async function writeOnce(items: TransactItem[]): Promise<boolean> {
  try {
    await writeAllOrNone(items);
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}

/**
 * A conditional UpdateItem whose failed condition is an answer, not an error (the change was
 * made already, or is no longer due): true when written, false when the condition failed; any
 * other error is thrown.
 */
export async function updateIfStill(input: UpdateCommandInput): Promise<boolean> {
  try {
    await documentClient.send(new UpdateCommand(input));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
