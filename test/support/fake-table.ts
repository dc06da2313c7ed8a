import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';

/**
 * An in-memory single table behind a mocked document client, for unit tests that drive several
 * writers through it step by step. It understands the expressions the segment membership code
 * uses (begins_with and BETWEEN sort-key queries, attribute_(not_)exists(PK) conditions, the
 * filtersVersion condition, SET and ADD updates); index queries answer nothing.
 *
 * `hold(name, matches)` parks every matching command until `release(name)`, and the command then
 * runs against the table as it is at release: a test orders the writers' reads and writes.
 */

type Item = Record<string, unknown>;
type Input = Record<string, any>;

interface Gate {
  matches: (command: string, input: Input) => boolean;
  released: boolean;
  arrivals: number;
  open: Promise<void>;
  release: () => void;
}

export class FakeTable {
  readonly items = new Map<string, Item>();
  private readonly gates = new Map<string, Gate>();

  constructor(stub: AwsClientStub<DynamoDBDocumentClient>) {
    stub.on(GetCommand).callsFake((input: Input) => this.run('Get', input, () => ({ Item: this.get(input.Key) })));
    stub.on(QueryCommand).callsFake((input: Input) => this.run('Query', input, () => ({ Items: this.query(input) })));
    stub.on(BatchGetCommand).callsFake((input: Input) =>
      this.run('BatchGet', input, () => ({
        Responses: Object.fromEntries(Object.entries(input.RequestItems as Record<string, { Keys: Item[] }>).map(([table, { Keys }]) => [table, Keys.map((key) => this.get(key)).filter(Boolean)])),
      })),
    );
    stub.on(TransactWriteCommand).callsFake((input: Input) => this.run('TransactWrite', input, () => this.transact(input.TransactItems as Input[])));
    stub.on(UpdateCommand).callsFake((input: Input) =>
      this.run('Update', input, () => {
        if (!this.holds(input.ConditionExpression, this.get(input.Key), input.ExpressionAttributeValues)) {
          throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
        }
        this.update(input);
        return {};
      }),
    );
  }

  put(item: Item): void {
    this.items.set(keyOf(item), { ...item });
  }

  get(key: Item): Item | undefined {
    const item = this.items.get(keyOf(key));
    return item && { ...item };
  }

  /** Parks matching commands (each command kind: Get, Query, BatchGet, TransactWrite, Update) until release. */
  hold(name: string, matches: (command: string, input: Input) => boolean): void {
    let release = () => {};
    const open = new Promise<void>((resolve) => (release = resolve));
    this.gates.set(name, { matches, released: false, arrivals: 0, open, release });
  }

  /** Whether a command reached the gate (and waits there until released). */
  arrived(name: string): boolean {
    return (this.gates.get(name)?.arrivals ?? 0) > 0;
  }

  release(name: string): void {
    const gate = this.gates.get(name)!;
    gate.released = true;
    gate.release();
  }

  private async run<T>(command: string, input: Input, action: () => T): Promise<T> {
    for (const gate of this.gates.values()) {
      if (!gate.released && gate.matches(command, input)) {
        gate.arrivals++;
        await gate.open;
      }
    }
    return action();
  }

  private query(input: Input): Item[] {
    if (input.IndexName) return [];
    const values = input.ExpressionAttributeValues as Item;
    const condition = String(input.KeyConditionExpression);
    const inRange = condition.includes('BETWEEN')
      ? (sk: string) => sk >= String(values[':low']) && sk <= String(values[':high'])
      : (sk: string) => sk.startsWith(String(values[':prefix']));
    const found = [...this.items.values()]
      .filter((item) => item.PK === values[':pk'] && inRange(String(item.SK)))
      .filter((item) => input.FilterExpression !== 'trackMembership = :true' || item.trackMembership === true)
      .sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
    return (input.ScanIndexForward === false ? found.reverse() : found).map((item) => ({ ...item }));
  }

  private transact(transactItems: Input[]): object {
    const reasons = transactItems.map((entry) => {
      const [kind, body] = Object.entries(entry)[0] as [string, Input];
      const current = this.get(kind === 'Put' ? body.Item : body.Key);
      return this.holds(body.ConditionExpression, current, body.ExpressionAttributeValues) ? 'None' : 'ConditionalCheckFailed';
    });
    if (reasons.some((code) => code !== 'None')) {
      throw new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: reasons.map((Code) => ({ Code })) });
    }
    for (const entry of transactItems) {
      if (entry.Put) this.put(entry.Put.Item);
      if (entry.Delete) this.items.delete(keyOf(entry.Delete.Key));
      if (entry.Update) this.update(entry.Update);
    }
    return {};
  }

  private holds(condition: string | undefined, current: Item | undefined, values: Item = {}): boolean {
    if (!condition) return true;
    if (condition === 'attribute_not_exists(PK)') return current === undefined;
    if (condition === 'attribute_exists(PK)') return current !== undefined;
    if (condition === 'filtersVersion = :version') return current?.filtersVersion === values[':version'];
    throw new Error(`FakeTable: unsupported condition ${condition}`);
  }

  private update(input: Input): void {
    const item: Item = this.get(input.Key) ?? { ...input.Key };
    const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
    const values = (input.ExpressionAttributeValues ?? {}) as Item;
    const name = (alias: string) => names[alias] ?? alias;
    for (const [, clause, body] of String(input.UpdateExpression).matchAll(/(SET|ADD)\s+(.*?)(?=\s+(?:SET|ADD)\s+|$)/g)) {
      for (const part of body!.split(',').map((text) => text.trim())) {
        if (clause === 'SET') {
          const [path, value] = part.split('=').map((text) => text.trim());
          const ifAbsent = /if_not_exists\([^,]+,\s*(:\w+)\)/.exec(value!);
          item[name(path!)] = ifAbsent ? (item[name(path!)] ?? values[ifAbsent[1]!]) : values[value!];
        } else {
          const [path, value] = part.split(/\s+/);
          item[name(path!)] = Number(item[name(path!)] ?? 0) + Number(values[value!]);
        }
      }
    }
    this.put(item);
  }
}

const keyOf = (item: Item) => `${String(item.PK)}|${String(item.SK)}`;
