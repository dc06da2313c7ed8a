import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createSession, listSessions, MAX_SESSIONS, revokeSessions, SESSION_IDLE_MS } from '../../../../shared/accounts/sessions';
import { FakeTable } from '../../../support/fake-table';

const ddb = mockClient(DynamoDBDocumentClient);
const USER = '01JD0000000000000000000USR';
const START = Date.parse('2026-11-20T10:00:00.000Z');

/** Signs in `count` times, a second apart, the first on project P1 and the others on P2. */
async function signIns(count: number, from = START) {
  const sessions = [];
  for (let n = 0; n < count; n++) sessions.push((await createSession(USER, n === 0 ? 'P1' : 'P2', 'jest', from + n * 1000)).session);
  return sessions;
}

describe('dashboard sessions', () => {
  let table: FakeTable;
  beforeEach(() => {
    ddb.reset();
    table = new FakeTable(ddb);
  });

  it('keeps at most MAX_SESSIONS per user: signing in once more ends the oldest', async () => {
    // Prepare / Act
    const sessions = await signIns(MAX_SESSIONS + 2);

    // Assess
    const listed = await listSessions(USER, START + (MAX_SESSIONS + 2) * 1000);
    expect(listed).toHaveLength(MAX_SESSIONS);
    expect(listed[0]!.sessionId).toBe(sessions[sessions.length - 1]!.sessionId);
    expect(listed.map((session) => session.sessionId)).not.toContain(sessions[0]!.sessionId);
    expect([...table.items.keys()].filter((key) => key.includes('SESSION#'))).toHaveLength(MAX_SESSIONS);
  });

  it('leaves expired sessions out of the list and removes them at the next sign-in', async () => {
    // Prepare: two sessions, then a sign-in after they went idle
    await signIns(2);
    const later = START + SESSION_IDLE_MS + 60_000;

    // Act
    const { session } = await createSession(USER, 'P1', 'jest', later);

    // Assess
    expect((await listSessions(USER, later)).map((listed) => listed.sessionId)).toEqual([session.sessionId]);
    expect([...table.items.keys()].filter((key) => key.includes('SESSION#'))).toHaveLength(1);
  });

  it('revokes every session but the one kept, or those of one project, a page at a time', async () => {
    // Prepare
    const sessions = await signIns(3);

    // Act
    const onP1 = await revokeSessions(USER, { projectId: 'P1' });
    const others = await revokeSessions(USER, { except: sessions[2]!.sessionId });

    // Assess
    expect([onP1, others]).toEqual([1, 1]);
    expect((await listSessions(USER, START + 10_000)).map((session) => session.sessionId)).toEqual([sessions[2]!.sessionId]);
  });
});
