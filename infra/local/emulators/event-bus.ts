import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ACCOUNT, REGION, resourcesOfType, type CfnTemplate } from '../template/cloud-assembly';
import { matchesPattern, type EventPattern } from '../lambda/event-sources/event-pattern';
import type { Resolve } from '../template/intrinsics';
import type { LambdaPermissions } from '../lambda/permissions';
import type { FunctionRunner } from '../lambda/runner';

/**
 * The default EventBridge bus and its rules, locally, from the template: events put on the bus
 * (SES publishes its events there) go to every enabled rule whose EventPattern matches, and
 * scheduled rules fire on their schedule; each target function is invoked asynchronously as
 * Lambda does it — checked against its resource policy, retried twice after a function error
 * (1 s and 2 s apart locally; a minute or two in AWS), then the event goes to the function's
 * DeadLetterConfig queue, sent with the function's role.
 */
export interface BusEvent {
  id: string;
  source: string;
  'detail-type': string;
  detail: unknown;
  [key: string]: unknown;
}

interface Rule {
  arn: string;
  pattern?: EventPattern;
  schedule?: string;
  targets: { functionArn: string; input?: string }[];
}

export interface EventBusOptions {
  template: CfnTemplate;
  resolve: Resolve;
  runnerByArn: (functionArn: string) => FunctionRunner | undefined;
  permissions: LambdaPermissions;
  /** An SQS client acting as the function's role (for its dead-letter queue). */
  sqsAs: (roleArn: string) => SQSClient;
  queueUrlByArn: ReadonlyMap<string, string>;
  log: (line: string) => void;
}

const ASYNC_RETRIES = 2;

export function createEventBus(options: EventBusOptions) {
  const { log } = options;
  const rules: Rule[] = resourcesOfType(options.template, 'AWS::Events::Rule').flatMap(([logicalId, resource]) => {
    const properties = resource.Properties ?? {};
    if (properties.State === 'DISABLED' || (properties.EventBusName && properties.EventBusName !== 'default')) return [];
    return [
      {
        arn: String(options.resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] })),
        ...(properties.EventPattern ? { pattern: options.resolve(properties.EventPattern) as EventPattern } : {}),
        ...(properties.ScheduleExpression ? { schedule: String(properties.ScheduleExpression) } : {}),
        targets: ((properties.Targets ?? []) as Record<string, unknown>[]).map((target) => ({
          functionArn: String(options.resolve(target.Arn)),
          ...(target.Input ? { input: String(target.Input) } : {}),
        })),
      },
    ];
  });
  const inFlight = new Set<Promise<void>>();

  async function invokeAsync(rule: Rule, functionArn: string, event: unknown) {
    const runner = options.runnerByArn(functionArn);
    if (!runner) return log(`Rule ${rule.arn}: no local function ${functionArn}`);
    if (!(await options.permissions.mayInvoke(functionArn, 'events.amazonaws.com', rule.arn))) {
      return log(`Rule ${rule.arn} may not invoke ${runner.definition.name}: no lambda:InvokeFunction permission for events.amazonaws.com (the event is dropped, as EventBridge's delivery would fail)`);
    }
    for (let attempt = 0; ; attempt++) {
      const outcome = await runner.invoke(event);
      if (outcome.ok) return;
      if (attempt === ASYNC_RETRIES) {
        const spec = runner.definition;
        log(`${spec.name} failed ${attempt + 1} times on an asynchronous event: ${outcome.error.errorType}: ${outcome.error.errorMessage}`);
        const queueUrl = spec.deadLetterArn ? options.queueUrlByArn.get(spec.deadLetterArn) : undefined;
        if (queueUrl) {
          await options.sqsAs(spec.roleArn).send(
            new SendMessageCommand({
              QueueUrl: queueUrl,
              MessageBody: JSON.stringify(event),
              MessageAttributes: {
                ErrorCode: { DataType: 'Number', StringValue: '200' },
                ErrorMessage: { DataType: 'String', StringValue: outcome.error.errorMessage.slice(0, 1000) },
              },
            }),
          );
        }
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)));
    }
  }

  function deliver(rule: Rule, event: unknown) {
    for (const target of rule.targets) {
      const running = invokeAsync(rule, target.functionArn, target.input ? JSON.parse(target.input) : event).catch((error) => log(`Delivering to ${target.functionArn} failed: ${(error as Error).message}`));
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
    }
  }

  return {
    /** PutEvents on the default bus: returns once the matching rules have their events (delivery is asynchronous, as in AWS). */
    put(event: BusEvent): void {
      for (const rule of rules) if (rule.pattern && matchesPattern(rule.pattern, event)) deliver(rule, event);
    },
    /** Fires scheduled rules: every `everySeconds` when given (LOCAL_SEGMENT_REFRESH_SECONDS), else at their cron times. */
    startSchedules(everySeconds?: number): () => Promise<void> {
      const timers = rules
        .filter((rule) => rule.schedule)
        .map((rule) => {
          const fire = () =>
            deliver(rule, {
              version: '0',
              id: crypto.randomUUID(),
              'detail-type': 'Scheduled Event',
              source: 'aws.events',
              account: ACCOUNT,
              time: new Date().toISOString(),
              region: REGION,
              resources: [rule.arn],
              detail: {},
            });
          if (!everySeconds) return scheduleCron(rule.schedule!, fire, log);
          const timer = setInterval(fire, everySeconds * 1000);
          return () => clearInterval(timer);
        });
      return async () => {
        for (const stop of timers) stop();
        await Promise.allSettled([...inFlight]);
      };
    },
    async drain(): Promise<void> {
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * `cron(minutes hours * * ? *)` (daily, UTC) and `rate(n unit)` — the forms the stack uses;
 * anything else is reported and not scheduled.
 */
function scheduleCron(expression: string, fire: () => void, log: (line: string) => void): () => void {
  const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  const daily = /^cron\((\d+) (\d+) \* \* \? \*\)$/.exec(expression);
  let timer: NodeJS.Timeout | undefined;
  if (rate) {
    const unit = rate[2]!.startsWith('minute') ? 60 : rate[2]!.startsWith('hour') ? 3600 : 86_400;
    timer = setInterval(fire, Number(rate[1]) * unit * 1000);
  } else if (daily) {
    const arm = () => {
      const next = new Date();
      next.setUTCHours(Number(daily[2]), Number(daily[1]), 0, 0);
      if (next.getTime() <= Date.now()) next.setUTCDate(next.getUTCDate() + 1);
      timer = setTimeout(() => {
        fire();
        arm();
      }, next.getTime() - Date.now());
    };
    arm();
  } else {
    log(`The local event bus does not run the schedule ${expression}`);
  }
  return () => clearTimeout(timer);
}
