import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { AsyncLocalStorage } from 'node:async_hooks';
import { marshall } from '@aws-sdk/util-dynamodb';

/**
 * An in-memory single table behind a mocked document client, for unit tests that drive several
 * writers through it step by step. It understands the expressions the segment membership code
 * uses (begins_with and BETWEEN sort-key queries, GSI1/GSI2 range queries with a name filter,
 * condition expressions of comparisons, AND/OR/NOT and attribute_(not_)exists, SET, ADD (numbers and sets), DELETE (sets) and REMOVE
 * updates, an update's ReturnValues ALL_NEW and UPDATED_OLD (and ALL_OLD on a failed condition), Limit and ExclusiveStartKey on the table).
 *
 * `hold(name, matches)` parks every matching command until `release(name)`, and the command then
 * runs against the table as it is at release: a test orders the writers' reads and writes. A
 * command parks at one gate at most (the first that matches), and a released gate matches no
 * more. `as(actor, work)` runs work as an actor (its commands' `actor`), so gates tell writers
 * that send the same commands apart. `history` lists every item written, in order.
 */

type Item = Record<string, unknown>;
type Input = Record<string, any>;

interface Gate {
  matches: (command: string, input: Input, actor: string | undefined) => boolean;
  released: boolean;
  arrivals: number;
  open: Promise<void>;
  release: () => void;
}

export class FakeTable {
  readonly items = new Map<string, Item>();
  readonly history: Item[] = [];
  private readonly gates = new Map<string, Gate>();
  private readonly actors = new AsyncLocalStorage<string>();
  private readonly parked = new Map<string, number>();

  constructor(stub: AwsClientStub<DynamoDBDocumentClient>) {
    stub.on(GetCommand).callsFake((input: Input) => this.run('Get', input, () => ({ Item: this.get(input.Key) })));
    stub.on(QueryCommand).callsFake((input: Input) => this.run('Query', input, () => this.query(input)));
    stub.on(BatchGetCommand).callsFake((input: Input) =>
      this.run('BatchGet', input, () => ({
        Responses: Object.fromEntries(Object.entries(input.RequestItems as Record<string, { Keys: Item[] }>).map(([table, { Keys }]) => [table, Keys.map((key) => this.get(key)).filter(Boolean)])),
      })),
    );
    stub.on(TransactWriteCommand).callsFake((input: Input) => this.run('TransactWrite', input, () => this.transact(input.TransactItems as Input[])));
    stub.on(PutCommand).callsFake((input: Input) =>
      this.run('Put', input, () => {
        if (!this.holds(input.ConditionExpression, this.get(input.Item), input.ExpressionAttributeValues, input.ExpressionAttributeNames)) {
          throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
        }
        this.put(input.Item);
        return {};
      }),
    );
    stub.on(DeleteCommand).callsFake((input: Input) =>
      this.run('Delete', input, () => {
        const before = this.get(input.Key);
        this.items.delete(keyOf(input.Key));
        return input.ReturnValues === 'ALL_OLD' && before ? { Attributes: before } : {};
      }),
    );
    stub.on(BatchWriteCommand).callsFake((input: Input) =>
      this.run('BatchWrite', input, () => {
        for (const request of Object.values(input.RequestItems as Record<string, Input[]>).flat()) {
          if (request.PutRequest) this.put(request.PutRequest.Item);
          if (request.DeleteRequest) this.items.delete(keyOf(request.DeleteRequest.Key));
        }
        return {};
      }),
    );
    stub.on(UpdateCommand).callsFake((input: Input) =>
      this.run('Update', input, () => {
        const before = this.get(input.Key);
        if (!this.holds(input.ConditionExpression, before, input.ExpressionAttributeValues, input.ExpressionAttributeNames)) {
          // ALL_OLD on a failed condition: the item as it is, in DynamoDB's wire format (the document client leaves it so).
          const item = input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && before ? { Item: marshall(before, { removeUndefinedValues: true }) } : {};
          throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', ...item });
        }
        this.update(input);
        if (input.ReturnValues === 'ALL_NEW') return { Attributes: this.get(input.Key) };
        // UPDATED_OLD: the whole old item stands in for its updated attributes (none when the update made it).
        return input.ReturnValues === 'UPDATED_OLD' && before ? { Attributes: before } : {};
      }),
    );
  }

  /** Empties the table and drops its gates (the mocked client keeps answering from it). */
  clear(): void {
    this.items.clear();
    this.history.length = 0;
    this.gates.clear();
    this.parked.clear();
  }

  put(item: Item): void {
    this.items.set(keyOf(item), { ...item });
    this.history.push({ ...item });
  }

  /** Runs `work` as `actor`: every command it sends (also after awaits) carries that name for the gates. */
  as<T>(actor: string, work: () => Promise<T>): Promise<T> {
    return this.actors.run(actor, work);
  }

  get(key: Item): Item | undefined {
    const item = this.items.get(keyOf(key));
    return item && { ...item };
  }

  /** Parks matching commands (each command kind: Get, Query, BatchGet, TransactWrite, Update, Put, Delete, BatchWrite) until release. */
  hold(name: string, matches: (command: string, input: Input, actor: string | undefined) => boolean): void {
    let release = () => {};
    const open = new Promise<void>((resolve) => (release = resolve));
    this.gates.set(name, { matches, released: false, arrivals: 0, open, release });
  }

  /** How many of an actor's commands wait at a gate now. */
  waiting(actor: string): number {
    return this.parked.get(actor) ?? 0;
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
    const actor = this.actors.getStore();
    for (const gate of this.gates.values()) {
      if (!gate.released && gate.matches(command, input, actor)) {
        gate.arrivals++;
        const key = actor ?? '';
        this.parked.set(key, (this.parked.get(key) ?? 0) + 1);
        await gate.open;
        this.parked.set(key, this.parked.get(key)! - 1);
        break;
      }
    }
    return action();
  }

  /** The table: `PK = :pk` with `begins_with(SK, :prefix)` or `SK BETWEEN :a AND :b`; Limit (counted before the filter, as DynamoDB does) and ExclusiveStartKey. */
  private query(input: Input): { Items: Item[]; LastEvaluatedKey?: Item } {
    const values = input.ExpressionAttributeValues as Item;
    if (input.IndexName) return { Items: this.indexQuery(input, values) };
    const condition = String(input.KeyConditionExpression);
    const between = /SK BETWEEN (:\w+) AND (:\w+)/.exec(condition);
    const inRange = between
      ? (sk: string) => sk >= String(values[between[1]!]) && sk <= String(values[between[2]!])
      : (sk: string) => sk.startsWith(String(values[':prefix']));
    const sorted = [...this.items.values()].filter((item) => item.PK === values[':pk'] && inRange(String(item.SK))).sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
    const ordered = input.ScanIndexForward === false ? sorted.reverse() : sorted;
    const after = input.ExclusiveStartKey ? ordered.findIndex((item) => item.SK === input.ExclusiveStartKey.SK) + 1 : 0;
    const evaluated = ordered.slice(after, input.Limit === undefined ? undefined : after + Number(input.Limit));
    const last = evaluated[evaluated.length - 1];
    const more = after + evaluated.length < ordered.length;
    const Items = evaluated.filter((item) => !input.FilterExpression || evaluate(String(input.FilterExpression), item, values, input.ExpressionAttributeNames ?? {})).map((item) => ({ ...item }));
    return { Items, ...(more && last ? { LastEvaluatedKey: { PK: last.PK, SK: last.SK } } : {}) };
  }

  /** GSI1 / GSI2: `<index>PK = :pk AND <index>SK >= :low`, in sort-key order, with a `#name IN (…)` filter. */
  private indexQuery(input: Input, values: Item): Item[] {
    const index = String(input.IndexName);
    if (!/^GSI\d$/.test(index) || !new RegExp(`^${index}PK = :pk( AND ${index}SK >= :low)?$`).test(String(input.KeyConditionExpression))) {
      throw new Error(`FakeTable: unsupported index query ${String(input.KeyConditionExpression)}`);
    }
    const found = [...this.items.values()]
      .filter((item) => item[`${index}PK`] === values[':pk'] && (values[':low'] === undefined || String(item[`${index}SK`]) >= String(values[':low'])))
      .filter((item) => !input.FilterExpression || evaluate(String(input.FilterExpression), item, values, input.ExpressionAttributeNames ?? {}))
      .sort((a, b) => String(a[`${index}SK`]).localeCompare(String(b[`${index}SK`])));
    return (input.ScanIndexForward === false ? found.reverse() : found).map((item) => ({ ...item }));
  }

  private transact(transactItems: Input[]): object {
    const reasons = transactItems.map((entry) => {
      const [kind, body] = Object.entries(entry)[0] as [string, Input];
      const current = this.get(kind === 'Put' ? body.Item : body.Key);
      return this.holds(body.ConditionExpression, current, body.ExpressionAttributeValues, body.ExpressionAttributeNames) ? 'None' : 'ConditionalCheckFailed';
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

  private holds(condition: string | undefined, current: Item | undefined, values: Item = {}, names: Record<string, string> = {}): boolean {
    if (!condition) return true;
    return evaluate(condition, current ?? {}, values, names);
  }

  private update(input: Input): void {
    const item: Item = this.get(input.Key) ?? { ...input.Key };
    const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
    const values = (input.ExpressionAttributeValues ?? {}) as Item;
    const name = (alias: string) => names[alias] ?? alias;
    for (const [, clause, body] of String(input.UpdateExpression).matchAll(/(SET|ADD|REMOVE|DELETE)\s+(.*?)(?=\s+(?:SET|ADD|REMOVE|DELETE)\s+|$)/g)) {
      // Commas between clauses, not inside if_not_exists( , ).
      for (const part of body!.split(/,(?![^(]*\))/).map((text) => text.trim())) {
        if (clause === 'REMOVE') {
          delete item[name(part)];
        } else if (clause === 'SET') {
          const [path, value] = part.split('=').map((text) => text.trim());
          const ifAbsent = /if_not_exists\([^,]+,\s*(:\w+)\)/.exec(value!);
          item[name(path!)] = ifAbsent ? (item[name(path!)] ?? values[ifAbsent[1]!]) : values[value!];
        } else {
          const [path, value] = part.split(/\s+/);
          const [current, change] = [item[name(path!)], values[value!]];
          if (change instanceof Set) {
            // String sets: ADD joins, DELETE takes away, and a set left empty is no attribute.
            const joined = clause === 'ADD' ? new Set([...((current as Set<unknown>) ?? []), ...change]) : new Set([...((current as Set<unknown>) ?? [])].filter((member) => !change.has(member)));
            if (joined.size > 0) item[name(path!)] = joined;
            else delete item[name(path!)];
          } else {
            item[name(path!)] = Number(current ?? 0) + Number(change);
          }
        }
      }
    }
    this.put(item);
  }
}

const keyOf = (item: Item) => `${String(item.PK)}|${String(item.SK)}`;

/**
 * A condition or filter expression against an item: AND, OR, NOT, parentheses, comparisons
 * (= <> < <= > >=), `IN (…)`, attribute_exists / attribute_not_exists, attribute names and dotted paths of them.
 */
function evaluate(expression: string, item: Item, values: Item, names: Record<string, string>): boolean {
  const tokens = expression.match(/<>|<=|>=|[()=<>,]|:[\w]+|(?:#[\w]+|[A-Za-z_][\w]*)(?:\.(?:#[\w]+|[A-Za-z_][\w]*))*/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++]!;
  const expect = (token: string) => {
    if (next() !== token) throw new Error(`FakeTable: cannot read the expression ${expression}`);
  };
  const operand = (token: string): unknown =>
    token.startsWith(':') ? values[token] : token.split('.').reduce<unknown>((value, part) => (value as Item | undefined)?.[names[part] ?? part], item);
  const compare = (left: unknown, operator: string, right: unknown): boolean => {
    if (operator === '=') return left === right;
    if (operator === '<>') return left !== right;
    if (left === undefined || right === undefined || typeof left !== typeof right) return false;
    const [a, b] = [left as string | number, right as string | number];
    return operator === '<' ? a < b : operator === '<=' ? a <= b : operator === '>' ? a > b : a >= b;
  };
  const factor = (): boolean => {
    const token = next();
    if (token === 'NOT') return !factor();
    if (token === '(') {
      const inner = or();
      expect(')');
      return inner;
    }
    if (token === 'attribute_exists' || token === 'attribute_not_exists') {
      expect('(');
      const present = operand(next()) !== undefined;
      expect(')');
      return token === 'attribute_exists' ? present : !present;
    }
    const left = operand(token);
    const operator = next();
    if (operator === 'IN') {
      expect('(');
      const options: unknown[] = [operand(next())];
      while (peek() === ',') {
        next();
        options.push(operand(next()));
      }
      expect(')');
      return options.includes(left);
    }
    return compare(left, operator, operand(next()));
  };
  const and = (): boolean => {
    let result = factor();
    while (peek() === 'AND') {
      next();
      result = factor() && result;
    }
    return result;
  };
  const or = (): boolean => {
    let result = and();
    while (peek() === 'OR') {
      next();
      result = and() || result;
    }
    return result;
  };
  const result = or();
  if (at !== tokens.length) throw new Error(`FakeTable: cannot read the expression ${expression}`);
  return result;
}
