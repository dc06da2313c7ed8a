import { Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { addBestPracticeChecks } from '../../infra/nag';
import { MailwrightStack } from '../../infra/stack';
import { assertionApp } from '../support/infra-template';

/**
 * The stack as `npm run synth` builds it, without esbuild bundling (slow; covered by synth.test.ts):
 * a stack of its own, since cdk-nag checks the construct tree, not a template.
 */
function stackOf(context: Record<string, unknown> = {}, retainData = true) {
  const app = assertionApp(context);
  const stack = new MailwrightStack(app, 'Mailwright', { retainData });
  return { app, stack };
}

/** Unacknowledged findings of both packs, as "RuleId at construct path". */
function findings(scope: IConstruct): string[] {
  return [new AwsSolutionsChecks(), new ServerlessChecks()].flatMap((pack) =>
    pack.validateScope(scope).violations.flatMap((violation) => violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.constructPath}`)),
  );
}

function acknowledgements(scope: IConstruct): { path: string; id: string; reason: unknown }[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, unknown>).map(([id, reason]) => ({ path: construct.node.path, id, reason }))),
  );
}

describe('cdk-nag: AwsSolutions and Serverless rule packs', () => {
  test('the stack has no unacknowledged finding', () => {
    // Prepare
    const { stack } = stackOf();

    // Act
    const found = findings(stack);

    // Assess
    expect(found).toEqual([]);
  });

  test('so does the throwaway stack and the stack with an alarm subscription', () => {
    // Prepare
    const { stack } = stackOf({ alarmEmail: 'ops@example.com' }, false);

    // Act
    const found = findings(stack);

    // Assess
    expect(found).toEqual([]);
  });

  test('every acknowledgement carries a one-line reason a reviewer can read', () => {
    // Prepare
    const { stack } = stackOf({ alarmEmail: 'ops@example.com' });

    // Act
    const acknowledged = acknowledgements(stack);

    // Assess
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { path, id, reason } of acknowledged) {
      expect({ path, id, reason: typeof reason === 'string' && reason.length >= 30 && !reason.includes('\n') ? 'ok' : reason }).toEqual({ path, id, reason: 'ok' });
    }
  });

  test('synth through Validations.of(app) fails on a finding nobody acknowledged', () => {
    // Prepare
    const { app, stack } = stackOf();
    new Bucket(stack, 'UnloggedBucket');
    addBestPracticeChecks(app);

    // Act
    const synth = () => app.synth();

    // Assess
    expect(findings(stack)).toEqual(expect.arrayContaining(['AwsSolutions-S1 at Mailwright/UnloggedBucket/Resource']));
    expect(synth).toThrow(/AwsSolutions-S1/);
  });

  test('synth through Validations.of(app) passes for the stack as it is', () => {
    // Prepare
    const { app } = stackOf();
    addBestPracticeChecks(app);

    // Act
    const assembly = app.synth();

    // Assess
    expect(assembly.getStackByName('Mailwright').template.Resources).toBeDefined();
  });
});
