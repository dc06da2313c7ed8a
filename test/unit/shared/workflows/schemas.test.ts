import * as v from 'valibot';
import { parseInput } from '../../../../shared/http/validation';
import { createWorkflowSchema, graphErrors, patchWorkflowSchema, type Step } from '../../../../shared/workflows/schemas';

const TEMPLATE = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const send = (id: string, next?: string) => ({ id, type: 'SEND_EMAIL', templateId: TEMPLATE, ...(next ? { next } : {}) });
const fieldsOf = (body: unknown) => {
  try {
    parseInput(createWorkflowSchema, body);
    return [];
  } catch (error) {
    return (error as { errors: { field: string }[] }).errors.map((item) => item.field);
  }
};
const base = { name: 'Onboarding', trigger: { type: 'EVENT', event: 'signed_up' } };
const graphFields = (steps: unknown[]) => graphErrors(v.parse(createWorkflowSchema, { ...base, steps }).steps).map((error) => `${error.field}:${error.code}`);

describe('workflow definition schema', () => {
  it('accepts every step type and fills the defaults (enabled, no reentry)', () => {
    // Act
    const parsed = parseInput(createWorkflowSchema, {
      ...base,
      steps: [
        send('welcome', 'wait'),
        { id: 'wait', type: 'DELAY', amount: 2, unit: 'days', next: 'opened' },
        { id: 'opened', type: 'WAIT_FOR_EVENT', event: 'email.opened', timeoutSeconds: 86400, next: 'plan', timeoutNext: 'hook' },
        { id: 'plan', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, then: 'tag', else: 'hook' },
        { id: 'tag', type: 'UPDATE_CONTACT', data: { stage: 'engaged' }, next: 'hook' },
        { id: 'hook', type: 'WEBHOOK', url: 'https://hooks.example.com/x', headers: { 'X-Team': 'growth' }, next: 'end' },
        { id: 'end', type: 'EXIT' },
      ],
    });

    // Assess
    expect(parsed.enabled).toBe(true);
    expect(parsed.allowReentry).toBe(false);
    expect(graphErrors(parsed.steps)).toEqual([]);
  });

  it.each([
    ['an unknown step type', [{ id: 'a', type: 'PAUSE' }], 'steps[0].type'],
    ['a SEND_EMAIL without templateId', [{ id: 'a', type: 'SEND_EMAIL' }], 'steps[0].templateId'],
    ['a step id with a slash', [{ id: 'a/b', type: 'EXIT' }], 'steps[0].id'],
    ['a delay unit of weeks', [{ id: 'a', type: 'DELAY', amount: 1, unit: 'weeks' }], 'steps[0].unit'],
    ['a fractional amount', [{ id: 'a', type: 'DELAY', amount: 1.5, unit: 'days' }], 'steps[0].amount'],
    ['a timeout over 365 days', [{ id: 'a', type: 'WAIT_FOR_EVENT', event: 'x', timeoutSeconds: 365 * 86400 + 1 }], 'steps[0].timeoutSeconds'],
    ['waiting for segment events', [{ id: 'a', type: 'WAIT_FOR_EVENT', event: 'segment.entered', timeoutSeconds: 10 }], 'steps[0].event'],
    ['an UPDATE_CONTACT that changes nothing', [{ id: 'a', type: 'UPDATE_CONTACT' }], 'steps[0]'],
    ['a webhook to ftp', [{ id: 'a', type: 'WEBHOOK', url: 'ftp://example.com/' }], 'steps[0].url'],
    ['a webhook header the service signs', [{ id: 'a', type: 'WEBHOOK', url: 'https://example.com/', headers: { 'webhook-signature': 'x' } }], 'steps[0].headers.webhook-signature'],
    ['a header value with a line break', [{ id: 'a', type: 'WEBHOOK', url: 'https://example.com/', headers: { 'X-A': 'a\r\nHost: evil' } }], 'steps[0].headers.X-A'],
    ['a bad filter operator', [{ id: 'a', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'gt', value: 'a' }] } }], 'steps[0].filters.conditions[0].operator'],
    ['no steps', [], 'steps'],
    ['51 steps', Array.from({ length: 51 }, (_, index) => ({ id: `s${index}`, type: 'EXIT' })), 'steps'],
  ])('refuses %s on its field', (_, steps, field) => {
    // Act / Assess
    expect(fieldsOf({ ...base, steps })).toContain(field);
  });

  it('refuses triggers on the service’s own email events and malformed triggers', () => {
    expect(fieldsOf({ ...base, trigger: { type: 'EVENT', event: 'email.sent' }, steps: [send('a')] })).toEqual(['trigger.event']);
    expect(fieldsOf({ ...base, trigger: { type: 'SEGMENT_ENTERED', segmentId: 'x' }, steps: [send('a')] })).toEqual(['trigger.segmentId']);
    expect(fieldsOf({ ...base, trigger: { type: 'SOMETIMES' }, steps: [send('a')] })).toEqual(['trigger.type']);
  });

  it('takes hostile values as 422s, not crashes', () => {
    expect(fieldsOf({ name: '\u0000'.repeat(300), trigger: 'EVENT', steps: { 0: send('a') }, allowReentry: 1 }).sort()).toEqual(['allowReentry', 'name', 'steps', 'trigger']);
    expect(fieldsOf(null)).toEqual(['body']);
  });

  it('refuses an empty PATCH', () => {
    expect(() => parseInput(patchWorkflowSchema, {})).toThrow();
    expect(parseInput(patchWorkflowSchema, { enabled: false })).toEqual({ enabled: false });
  });
});

describe('graphErrors', () => {
  it('names a next to nowhere, each on its branch field', () => {
    expect(graphFields([{ id: 'a', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'subscribed', operator: 'equals', value: true }] }, then: 'x', else: 'y' }])).toEqual([
      'steps[0].then:UNKNOWN_STEP',
      'steps[0].else:UNKNOWN_STEP',
    ]);
  });

  it('finds cycles, including a step that leads to itself', () => {
    expect(graphFields([send('a', 'b'), send('b', 'c'), send('c', 'a')])).toEqual(['steps[2].next:CYCLE']);
    expect(graphFields([send('a', 'a')])).toEqual(['steps[0].next:CYCLE']);
  });

  it('finds unreachable steps and duplicate ids', () => {
    expect(graphFields([send('a'), send('b', 'a')])).toEqual(['steps[1]:UNREACHABLE_STEP']);
    expect(graphFields([send('a', 'b'), send('b'), send('b')])).toEqual(['steps[2].id:DUPLICATE_STEP']);
  });

  it('limits a DELAY to 365 days whatever the unit', () => {
    expect(graphFields([{ id: 'a', type: 'DELAY', amount: 365, unit: 'days' }])).toEqual([]);
    expect(graphFields([{ id: 'a', type: 'DELAY', amount: 8761, unit: 'hours' }])).toEqual(['steps[0].amount:DELAY_TOO_LONG']);
  });

  it('accepts a diamond (two branches joining again): that is not a cycle', () => {
    const steps = [
      { id: 'c', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'subscribed', operator: 'equals', value: true }] }, then: 'x', else: 'y' },
      send('x', 'z'),
      send('y', 'z'),
      { id: 'z', type: 'EXIT' },
    ] as Step[];
    expect(graphErrors(steps)).toEqual([]);
  });
});
