import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../aws/clients';
import { tableName } from './table';

/**
 * Atomic counter updates, coalesced per item: while one write to an item is in flight, further
 * increments to it are merged into the next write. Under load (a sender batch, a burst of SES
 * events) that turns one write per event into about one per round trip. Every caller awaits the
 * write that carries its increment, so nothing is left unwritten when a function returns.
 */
type Key = Record<string, string>;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Pending {
  key: Key;
  /** A counter item whose `total` counts the items of this kind: one is added when this write creates the item. */
  countNewOn?: Key;
  adds: Map<string, number>;
  /** Attributes to SET; merging keeps the greatest value (used for names and ISO timestamps). */
  sets: Map<string, string>;
  waiters: Waiter[];
}

const pending = new Map<string, Pending>();
const inFlight = new Set<string>();

export function addToCounters(key: Key, adds: Record<string, number>, sets: Record<string, string> = {}, { countNewOn }: { countNewOn?: Key } = {}): Promise<void> {
  const id = JSON.stringify(key);
  const entry: Pending = pending.get(id) ?? { key, countNewOn, adds: new Map(), sets: new Map(), waiters: [] };
  pending.set(id, entry);
  for (const [name, value] of Object.entries(adds)) entry.adds.set(name, (entry.adds.get(name) ?? 0) + value);
  for (const [name, value] of Object.entries(sets)) {
    const current = entry.sets.get(name);
    if (current === undefined || value > current) entry.sets.set(name, value);
  }
  return new Promise<void>((resolve, reject) => {
    entry.waiters.push({ resolve, reject });
    void flush(id);
  });
}

async function flush(id: string): Promise<void> {
  if (inFlight.has(id)) return;
  const entry = pending.get(id);
  if (!entry) return;
  pending.delete(id);
  inFlight.add(id);
  try {
    const written = await updateCounter(new UpdateCommand({ ...counterUpdateInput(entry.key, entry.adds, entry.sets), ...(entry.countNewOn ? { ReturnValues: 'UPDATED_OLD' } : {}) }));
    // UPDATED_OLD holds an added attribute's old value unless this write made the item.
    const [firstAdd] = entry.adds.keys();
    if (entry.countNewOn && written?.Attributes?.[firstAdd!] === undefined) await addToCounters(entry.countNewOn, { total: 1 });
    entry.waiters.forEach((waiter) => waiter.resolve());
  } catch (error) {
    entry.waiters.forEach((waiter) => waiter.reject(error));
  } finally {
    inFlight.delete(id);
    void flush(id);
  }
}

/** Counter items the table stream's consumers update in transactions refuse a write while one is in flight (TransactionConflict), which the SDK does not retry. */
const CONFLICT_ATTEMPTS = 6;

async function updateCounter(command: UpdateCommand) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await documentClient.send(command);
    } catch (error) {
      if ((error as Error).name !== 'TransactionConflictException' || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
    }
  }
}

export function counterUpdateInput(key: Key, adds: Map<string, number>, sets: Map<string, string>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const setParts: string[] = [];
  const addParts: string[] = [];
  [...sets].forEach(([name, value], index) => {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    setParts.push(`#s${index} = :s${index}`);
  });
  [...adds].forEach(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    addParts.push(`#a${index} :a${index}`);
  });
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: [setParts.length ? `SET ${setParts.join(', ')}` : '', addParts.length ? `ADD ${addParts.join(', ')}` : ''].filter(Boolean).join(' '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
