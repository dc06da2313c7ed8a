import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * X-Ray through Powertools Tracer. In Lambda (active tracing, set by MailwrightFunction) every SDK
 * client made with `traced()` records a subsegment per AWS call; outside Lambda (the local stack,
 * tests) the tracer turns itself off and `traced()` returns the client as it is.
 */
export const tracer = new Tracer({ serviceName: 'mailwright' });

/** The SDK client, its calls recorded as X-Ray subsegments. */
export const traced = <T>(client: T): T => tracer.captureAWSv3Client(client);

/**
 * Runs one invocation's work in its own subsegment (`## <name>`), annotated with the cold start,
 * the service and the given annotations (searchable in X-Ray, e.g. correlationId): Lambda's own
 * segment cannot carry annotations. Errors are recorded and rethrown.
 */
export async function inSubsegment<T>(name: string, annotations: Record<string, string>, work: () => Promise<T>): Promise<T> {
  if (!tracer.isTracingEnabled()) return work();
  const parent = tracer.getSegment();
  if (!parent) return work();
  const subsegment = parent.addNewSubsegment(`## ${name}`);
  tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  for (const [key, value] of Object.entries(annotations)) tracer.putAnnotation(key, value);
  try {
    return await work();
  } catch (error) {
    tracer.addErrorAsMetadata(error as Error);
    throw error;
  } finally {
    subsegment.close();
    tracer.setSegment(parent);
  }
}
