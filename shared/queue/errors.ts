/**
 * Thrown by an SQS consumer's `process` to have the message come back after `delaySeconds`
 * instead of the queue's (long) visibility timeout: the handler factory sets the record's
 * visibility to the delay and reports it as a batch item failure. Each return still counts as a
 * receive towards the queue's maxReceiveCount.
 */
export class RetryLater extends Error {
  override name = 'RetryLater';

  constructor(
    readonly delaySeconds: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** The body is not JSON or not the message the consumer expects: it goes to the DLQ in time. */
export class InvalidMessage extends Error {
  override name = 'InvalidMessage';
}
