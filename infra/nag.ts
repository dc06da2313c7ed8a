import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';

/**
 * cdk-nag's AWS Solutions and Serverless rule packs run on every synth: an unacknowledged finding
 * fails it (the report lands in the cloud assembly as validation-report.json). Acknowledgements sit
 * in code beside the resource they concern, each with its reason, and are copied into the template's
 * Metadata (`cdk_nag.rules_to_suppress`) for the security review.
 */
export function addBestPracticeChecks(app: App): void {
  Validations.of(app).addPlugins(
    new AwsSolutionsChecks(app, { writeSuppressionsToCloudFormation: true }),
    new ServerlessChecks(app, { writeSuppressionsToCloudFormation: true }),
  );
}
