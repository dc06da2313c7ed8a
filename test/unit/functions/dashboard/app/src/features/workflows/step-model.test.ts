import * as v from 'valibot';
import { addStep, deletePreview, deleteStep, STEP_TYPES, summary, TRIGGER_ID } from '../../../../../../../../functions/dashboard/app/src/features/workflows/step-model';
import type { WorkflowStep } from '../../../../../../../../functions/dashboard/app/src/lib/api-types';
import { graphErrors, stepSchema, STEP_TYPES as API_STEP_TYPES } from '../../../../../../../../shared/workflows/schemas';

const TEMPLATE = '01HZZZZZZZZZZZZZZZZZZZZZZZ';
const branching: WorkflowStep[] = [
  { id: 'welcome', type: 'SEND_EMAIL', templateId: TEMPLATE, next: 'plan' },
  { id: 'plan', type: 'CONDITION', filters: { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }, then: 'tips', else: 'upgrade' },
  { id: 'tips', type: 'SEND_EMAIL', templateId: TEMPLATE },
  { id: 'upgrade', type: 'SEND_EMAIL', templateId: TEMPLATE, next: 'bye' },
  { id: 'bye', type: 'EXIT' },
];

describe('the workflow editor step model', () => {
  it('knows every step type the API knows', () => {
    // Assess
    expect([...STEP_TYPES].sort()).toEqual([...API_STEP_TYPES].sort());
  });

  it('adds a step on a branch, the branch going on after it, in a document the server accepts', () => {
    // Act
    const { steps, id } = addStep(branching, 'plan', 'else', 'DELAY');

    // Assess
    expect(id).toBe('delay-1');
    expect(steps.find((step) => step.id === 'plan')).toMatchObject({ then: 'tips', else: 'delay-1' });
    expect(steps.find((step) => step.id === 'delay-1')).toEqual({ id: 'delay-1', type: 'DELAY', amount: 1, unit: 'hours', next: 'upgrade' });
    expect(steps.every((step) => v.is(stepSchema, step))).toBe(true);
    expect(graphErrors(steps as never)).toEqual([]);
  });

  it('adds a step after the trigger as the new first step', () => {
    // Act
    const { steps } = addStep(branching, TRIGGER_ID, 'first', 'EXIT');

    // Assess: an EXIT has no way on, so the old steps are no longer reached (the server refuses that: the user sees why)
    expect(steps[0]).toEqual({ id: 'exit-1', type: 'EXIT' });
  });

  it('deletes a condition: what led to it goes on to its then branch, and the steps only its else reached go too', () => {
    // Act
    const deleted = deleteStep(branching, 'plan');

    // Assess
    expect(deleted.steps).toEqual([{ ...branching[0], next: 'tips' }, branching[2]]);
    expect(deleted.alsoRemoved).toEqual(['upgrade', 'bye']);
    expect(deletePreview(branching, 'plan')).toBe('What led to plan will go on to tips. These steps, reached only through it, are removed too: upgrade, bye.');
    expect(graphErrors(deleted.steps as never)).toEqual([]);
  });

  it('deletes the first step: its continuation becomes first', () => {
    // Act
    const deleted = deleteStep(branching, 'welcome');

    // Assess
    expect(deleted.steps.map((step) => step.id)).toEqual(['plan', 'tips', 'upgrade', 'bye']);
    expect(deleted.alsoRemoved).toEqual([]);
  });

  it('deletes a last step: the branch that led to it ends', () => {
    // Act
    const deleted = deleteStep(branching, 'bye');

    // Assess
    expect(deleted.steps.find((step) => step.id === 'upgrade')).toEqual({ id: 'upgrade', type: 'SEND_EMAIL', templateId: TEMPLATE });
    expect(deletePreview(branching, 'bye')).toBe('What led to bye will end there.');
  });

  it('says a step in one line: a send step by its template name when known, a condition by its conditions', () => {
    // Assess
    expect(summary(branching[0]!, { [TEMPLATE]: 'Welcome' })).toBe('Welcome');
    expect(summary(branching[0]!)).toBe(`template ${TEMPLATE}`);
    expect(summary(branching[1]!)).toBe('AND of 1 condition');
  });
});
