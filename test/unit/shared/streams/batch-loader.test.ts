import { perBatchLoader } from '../../../../shared/streams/batch-loader';

describe('perBatchLoader', () => {
  it('reads once for each set of arguments and shares the answer', async () => {
    // Prepare
    const reads: string[] = [];
    const load = perBatchLoader(async (projectId: string, name: string) => {
      reads.push(`${projectId}/${name}`);
      return [projectId, name];
    });

    // Act
    const answers = await Promise.all([load('P1', 'a'), load('P1', 'a'), load('P1', 'b'), load('P2', 'a'), load('P1', 'a')]);

    // Assess
    expect(reads).toEqual(['P1/a', 'P1/b', 'P2/a']);
    expect(answers[4]).toEqual(['P1', 'a']);
  });

  it('reads again after a failed read, and after forget', async () => {
    // Prepare: the first read fails
    let calls = 0;
    const load = perBatchLoader(async (projectId: string) => {
      calls++;
      if (calls === 1) throw new Error('throttled');
      return `${projectId}:${calls}`;
    });

    // Act and Assess
    await expect(load('P1')).rejects.toThrow('throttled');
    await expect(load('P1')).resolves.toBe('P1:2');
    await expect(load('P1')).resolves.toBe('P1:2');
    load.forget('P1');
    await expect(load('P1')).resolves.toBe('P1:3');
  });
});
