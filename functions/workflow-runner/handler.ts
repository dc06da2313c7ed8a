import { createSqsHandler } from '../../shared/queue/handler';
import { runStep } from '../../shared/workflows/engine';
import { parseStepMessage } from '../../shared/workflows/queue';

/** The workflow queue's consumer: each message advances one execution by one step (shared/workflows/engine.ts). */
export const handler = createSqsHandler({
  name: 'workflow-runner',
  parse: parseStepMessage,
  process: (message, record) => runStep(message, Number(record.attributes?.ApproximateReceiveCount ?? 1) || 1),
});
