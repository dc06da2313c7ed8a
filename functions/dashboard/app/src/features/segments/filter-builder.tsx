import { useId } from 'react';
import {
  countConditions,
  DATA_TYPES,
  LIMITS,
  newCondition,
  newGroup,
  operatorLabel,
  operatorsFor,
  reshape,
  SUBJECTS,
  updateItem,
  valueInput,
  type ConditionDraft,
  type GroupDraft,
  type Operator,
  type Subject,
  type DataType,
} from './filter-model';

interface BuilderProps {
  value: GroupDraft;
  onChange: (next: GroupDraft) => void;
  /** Event names recorded so far, suggested in event conditions. */
  eventNames: readonly string[];
}

/**
 * The filter builder: nested AND/OR groups of conditions on contact fields, data keys and
 * events, each offering only the operators that fit its type. Every control has its own label
 * (read as "Condition 1.2 field" and so on), so it reads the same with a screen reader.
 */
export function FilterBuilder({ value, onChange, eventNames }: BuilderProps) {
  const listId = useId();
  const full = countConditions(value) >= LIMITS.maxConditions;
  const update = (id: string, next: ConditionDraft | GroupDraft | null) => onChange(id === value.id ? (next as GroupDraft) : updateItem(value, id, next));
  return (
    <div className="filter-builder">
      <datalist id={listId}>
        {eventNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <Group group={value} path="" depth={1} full={full} eventList={listId} update={update} />
    </div>
  );
}

interface GroupProps {
  group: GroupDraft;
  /** "" for the root, "2" for the root's second item, "2.1" below it. */
  path: string;
  depth: number;
  full: boolean;
  eventList: string;
  update: (id: string, next: ConditionDraft | GroupDraft | null) => void;
  onRemove?: () => void;
}

function Group({ group, path, depth, full, eventList, update, onRemove }: GroupProps) {
  const name = path ? `Group ${path}` : 'All conditions';
  const set = (items: GroupDraft['items']) => update(group.id, { ...group, items });
  return (
    <fieldset className={`filter-group depth-${depth}`}>
      <legend>{name}</legend>
      <div className="group-head">
        <div className="segmented" role="group" aria-label={`${name}: contacts match`}>
          {(['AND', 'OR'] as const).map((operator) => (
            <button key={operator} type="button" aria-pressed={group.operator === operator} onClick={() => update(group.id, { ...group, operator })}>
              {operator === 'AND' ? 'All (AND)' : 'Any (OR)'}
            </button>
          ))}
        </div>
        {onRemove && (
          <button type="button" className="danger" onClick={onRemove}>
            Remove group {path}
          </button>
        )}
      </div>
      <ol className="filter-items">
        {group.items.map((item, index) => {
          const at = path ? `${path}.${index + 1}` : `${index + 1}`;
          const remove = () => set(group.items.filter((other) => other.id !== item.id));
          return (
            <li key={item.id}>
              {index > 0 && (
                <span className="joiner" aria-hidden="true">
                  {group.operator}
                </span>
              )}
              {item.kind === 'group' ? (
                <Group group={item} path={at} depth={depth + 1} full={full} eventList={eventList} update={update} onRemove={remove} />
              ) : (
                <Condition condition={item} path={at} eventList={eventList} onChange={(next) => update(item.id, next)} onRemove={remove} />
              )}
            </li>
          );
        })}
      </ol>
      <div className="actions">
        <button type="button" disabled={full} onClick={() => set([...group.items, newCondition()])}>
          Add condition{path ? ` to group ${path}` : ''}
        </button>
        {depth < LIMITS.maxDepth && (
          <button type="button" disabled={full} onClick={() => set([...group.items, newGroup(group.operator === 'AND' ? 'OR' : 'AND')])}>
            Add group{path ? ` in group ${path}` : ''}
          </button>
        )}
      </div>
    </fieldset>
  );
}

function Condition({ condition, path, eventList, onChange, onRemove }: { condition: ConditionDraft; path: string; eventList: string; onChange: (next: ConditionDraft) => void; onRemove: () => void }) {
  const id = useId();
  const name = `Condition ${path}`;
  const input = valueInput(condition);
  const set = (change: Partial<ConditionDraft>) => onChange({ ...condition, ...change });
  return (
    <div className="condition" role="group" aria-label={name}>
      <select aria-label={`${name} field`} value={condition.subject} onChange={(event) => onChange(reshape(condition, { subject: event.target.value as Subject }))}>
        {SUBJECTS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      {condition.subject === 'data' && (
        <>
          <input aria-label={`${name} data key`} className="data-key" placeholder="plan" value={condition.dataKey} maxLength={260} onChange={(event) => set({ dataKey: event.target.value })} />
          <select aria-label={`${name} value type`} value={condition.dataType} onChange={(event) => onChange(reshape(condition, { dataType: event.target.value as DataType }))}>
            {DATA_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </>
      )}
      <select aria-label={`${name} operator`} value={condition.operator} onChange={(event) => onChange(reshape(condition, { operator: event.target.value as Operator }))}>
        {operatorsFor(condition.subject, condition.dataType).map((operator) => (
          <option key={operator} value={operator}>
            {operatorLabel(operator, condition.subject, condition.dataType)}
          </option>
        ))}
      </select>
      {input === 'boolean' && (
        <select aria-label={`${name} value`} value={condition.value} onChange={(event) => set({ value: event.target.value })}>
          <option value="true">{condition.subject === 'subscribed' ? 'yes' : 'true'}</option>
          <option value="false">{condition.subject === 'subscribed' ? 'no' : 'false'}</option>
        </select>
      )}
      {input === 'date' && <input type="date" aria-label={`${name} value`} value={condition.value} onChange={(event) => set({ value: event.target.value })} />}
      {input === 'number' && <input type="number" step="any" aria-label={`${name} value`} value={condition.value} onChange={(event) => set({ value: event.target.value })} />}
      {input === 'text' && <input aria-label={`${name} value`} value={condition.value} maxLength={LIMITS.maxStringLength} onChange={(event) => set({ value: event.target.value })} />}
      {input === 'list' && (
        <input aria-label={`${name} values, separated by commas`} placeholder="pro, team" aria-describedby={`${id}-hint`} value={condition.value} onChange={(event) => set({ value: event.target.value })} />
      )}
      {input === 'event' && (
        <>
          <input aria-label={`${name} event name`} list={eventList} placeholder="signed_up" value={condition.value} maxLength={100} onChange={(event) => set({ value: event.target.value })} />
          <label className="within">
            in the last
            <input type="number" min={1} max={LIMITS.maxWithinDays} step={1} aria-label={`${name} within days (empty: ever)`} placeholder="any" value={condition.withinDays} onChange={(event) => set({ withinDays: event.target.value })} />
            days
          </label>
        </>
      )}
      <button type="button" className="danger" aria-label={`Remove condition ${path}`} onClick={onRemove}>
        Remove
      </button>
      {input === 'list' && (
        <small id={`${id}-hint`} className="hint">
          Separate values with commas.
        </small>
      )}
    </div>
  );
}
