import { countOnce, placeOf, type Counted } from '../streams/counting';
import type { StreamChange } from '../streams/handler';
import { workflowKeys } from './keys';

/**
 * The figures an entry adds to its workflow (entered, its first step entered) are written on the
 * execution it puts (its `tally`: shared/workflows/executions.ts) and counted from the table stream
 * by workflow-figures: a transaction or a few per batch for the FIGURES items of every workflow
 * entered, where the trigger consumer made one UpdateItem per workflow it entered. The runner's own
 * figures (steps, how executions end) are added where they happen.
 */
function entered(change: StreamChange): Counted | undefined {
  const image = change.newImage;
  if (change.eventName !== 'INSERT' || !image?.tally || !String(image.SK).startsWith(workflowKeys.executionPrefix)) return undefined;
  const runtime = workflowKeys.ofRuntimePartition(image.PK);
  if (!runtime) return undefined;
  return { ...placeOf(change), adds: [{ key: workflowKeys.figures(runtime.projectId, runtime.workflowId), adds: image.tally as Record<string, number> }], detail: undefined };
}

/** A new execution that carries its entry's figures. */
export const isEntry = (change: StreamChange): boolean => entered(change) !== undefined;

/** Adds the entries of a stream batch to their workflows' figures, exactly once. */
export async function countEntries(changes: StreamChange[]): Promise<void> {
  await countOnce(
    'workflow-figures',
    changes.map(entered).filter((entry): entry is Counted => entry !== undefined),
  );
}
