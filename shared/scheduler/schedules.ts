import { createHash } from 'node:crypto';
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient, UpdateScheduleCommand, type CreateScheduleCommandInput } from '@aws-sdk/client-scheduler';
import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';
import { traced } from '../observability/tracer';

/** Configuration, read once at cold start. */
const config = {
  groupName: requiredEnv(variables.scheduleGroupName),
  roleArn: requiredEnv(variables.schedulerRoleArn),
};

/** Locally the endpoint comes from AWS_ENDPOINT_URL_SCHEDULER (infra/local/emulators/scheduler.ts). */
export const schedulerClient = traced(new SchedulerClient({}));

/** EventBridge Scheduler's limit on schedule names. */
const SCHEDULE_NAME = /^[0-9a-zA-Z-_.]{1,64}$/;

export interface OneTimeSchedule {
  /** Unique in the group: at most 64 characters of [0-9a-zA-Z-_.]. */
  name: string;
  at: Date;
  /** The SQS queue that receives `JSON.stringify(message)` at `at`. */
  targetArn: string;
  message: unknown;
}

/**
 * A one-time EventBridge Scheduler schedule (`at(...)` in UTC, no flexible window, deleted after
 * it ran) in the group SCHEDULE_GROUP_NAME, run as SCHEDULER_ROLE_ARN. Creating a name that exists
 * replaces its time, target and message. The client token derives from the whole request, so a
 * retried call is idempotent while a changed one is not mistaken for a retry; a caller that may
 * create the same schedule again after deleting it puts a version in the message (Scheduler would
 * otherwise take the second create for a retry of the first).
 */
export async function scheduleOnce(schedule: OneTimeSchedule): Promise<void> {
  const input = scheduleInput(schedule);
  try {
    await schedulerClient.send(new CreateScheduleCommand(input));
  } catch (error) {
    if (!isError(error, ConflictException, 'ConflictException')) throw error;
    await schedulerClient.send(new UpdateScheduleCommand(input));
  }
}

/** Deletes the schedule; one that is gone (ran, or never made) is fine. */
export async function cancelSchedule(name: string): Promise<void> {
  try {
    await schedulerClient.send(new DeleteScheduleCommand({ Name: name, GroupName: config.groupName }));
  } catch (error) {
    if (!isError(error, ResourceNotFoundException, 'ResourceNotFoundException')) throw error;
  }
}

/** `at(yyyy-mm-ddThh:mm:ss)`: Scheduler takes whole seconds, in ScheduleExpressionTimezone (UTC). */
export const atExpression = (at: Date) => `at(${at.toISOString().slice(0, 19)})`;

export function scheduleInput({ name, at, targetArn, message }: OneTimeSchedule): CreateScheduleCommandInput {
  if (!SCHEDULE_NAME.test(name)) throw new Error(`Invalid schedule name "${name}": at most 64 characters of [0-9a-zA-Z-_.]`);
  if (Number.isNaN(at.getTime())) throw new Error('Invalid schedule time');
  const expression = atExpression(at);
  const body = JSON.stringify(message);
  return {
    Name: name,
    GroupName: config.groupName,
    ScheduleExpression: expression,
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    State: 'ENABLED',
    Target: { Arn: targetArn, RoleArn: config.roleArn, Input: body },
    ClientToken: clientToken([name, expression, targetArn, body]),
  };
}

/** Scheduler client tokens: 1-64 characters of [a-zA-Z0-9-_]. */
const clientToken = (parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

const isError = (error: unknown, type: abstract new (...args: never[]) => Error, name: string) => error instanceof type || (error as Error | undefined)?.name === name;
