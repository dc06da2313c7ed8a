import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { cancelSchedule, scheduleOnce } from '../../../../shared/scheduler/schedules';

const scheduler = mockClient(SchedulerClient);
const TARGET = 'arn:aws:sqs:us-east-1:123456789012:campaign-fanout';

beforeEach(() => scheduler.reset());

const expectedInput = {
  Name: 'campaign-C1',
  GroupName: 'mailwright-test',
  ScheduleExpression: 'at(2026-12-01T09:30:15)',
  ScheduleExpressionTimezone: 'UTC',
  FlexibleTimeWindow: { Mode: 'OFF' },
  ActionAfterCompletion: 'DELETE',
  State: 'ENABLED',
  Target: { Arn: TARGET, RoleArn: 'arn:aws:iam::123456789012:role/mailwright-scheduler-test', Input: '{"kind":"start","campaignId":"C1"}' },
  ClientToken: expect.stringMatching(/^[0-9a-f]{64}$/),
};

describe('scheduleOnce', () => {
  it('creates a one-time schedule at the given second, in UTC, deleted after it ran, sending the message as JSON', async () => {
    // Prepare
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    // Act
    await scheduleOnce({ name: 'campaign-C1', at: new Date('2026-12-01T09:30:15.900Z'), targetArn: TARGET, message: { kind: 'start', campaignId: 'C1' } });
    // Assess
    expect(scheduler.commandCalls(CreateScheduleCommand).map((call) => call.args[0].input)).toEqual([expectedInput]);
    expect(scheduler.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
  });

  it('updates the schedule when the name exists (a reschedule replaces it)', async () => {
    // Prepare
    scheduler.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    scheduler.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    // Act
    await scheduleOnce({ name: 'campaign-C1', at: new Date('2026-12-01T09:30:15Z'), targetArn: TARGET, message: { kind: 'start', campaignId: 'C1' } });
    // Assess
    expect(scheduler.commandCalls(UpdateScheduleCommand).map((call) => call.args[0].input)).toEqual([expectedInput]);
  });

  it('gives the same request the same client token and a changed one another', async () => {
    // Prepare
    scheduler.on(CreateScheduleCommand).resolves({});
    const schedule = { name: 'campaign-C1', at: new Date('2026-12-01T09:30:15Z'), targetArn: TARGET, message: { campaignId: 'C1' } };
    // Act
    await scheduleOnce(schedule);
    await scheduleOnce(schedule);
    await scheduleOnce({ ...schedule, at: new Date('2026-12-01T09:31:15Z') });
    // Assess
    const tokens = scheduler.commandCalls(CreateScheduleCommand).map((call) => call.args[0].input.ClientToken);
    expect(tokens[0]).toBe(tokens[1]);
    expect(tokens[2]).not.toBe(tokens[0]);
  });

  it('refuses names Scheduler would refuse, before calling it', async () => {
    // Act / Assess
    await expect(scheduleOnce({ name: 'campaign/C1', at: new Date(), targetArn: TARGET, message: {} })).rejects.toThrow(/Invalid schedule name/);
    await expect(scheduleOnce({ name: 'x'.repeat(65), at: new Date(), targetArn: TARGET, message: {} })).rejects.toThrow(/Invalid schedule name/);
    expect(scheduler.calls()).toHaveLength(0);
  });

  it('passes other errors on', async () => {
    // Prepare
    scheduler.on(CreateScheduleCommand).rejects(new Error('AccessDenied'));
    // Act / Assess
    await expect(scheduleOnce({ name: 'c', at: new Date(), targetArn: TARGET, message: {} })).rejects.toThrow('AccessDenied');
  });
});

describe('cancelSchedule', () => {
  it('deletes the schedule from the group', async () => {
    // Prepare
    scheduler.on(DeleteScheduleCommand).resolves({});
    // Act
    await cancelSchedule('campaign-C1');
    // Assess
    expect(scheduler.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input)).toEqual([
      { Name: 'campaign-C1', GroupName: 'mailwright-test' },
    ]);
  });

  it('is fine when the schedule is gone', async () => {
    // Prepare
    scheduler.on(DeleteScheduleCommand).rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    // Act / Assess
    await expect(cancelSchedule('campaign-C1')).resolves.toBeUndefined();
  });

  it('passes other errors on', async () => {
    // Prepare
    scheduler.on(DeleteScheduleCommand).rejects(new Error('Throttled'));
    // Act / Assess
    await expect(cancelSchedule('campaign-C1')).rejects.toThrow('Throttled');
  });
});
