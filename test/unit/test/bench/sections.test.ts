import { variables } from '../../../../shared/config/variables';
import { benchEnvironment, queueEnvironment } from '../../../bench/dynamo';
import { SECTIONS } from '../../../bench/sections';

/**
 * Every bench section loads as `npm run bench` loads it (test/bench/run.ts): the environment set by
 * benchEnvironment from the functions' template environments and the queue URLs pointQueuesAtStack
 * sets (here made up: nothing is sent), then the section's module imported through SECTIONS. A
 * service module that starts to read a variable at import, or a section that no longer resolves
 * its imports, fails here rather than in a bench run an hour later.
 *
 * The functions' environments are the unit tests' configuration of a function (test/support/unit-env.ts):
 * every registry variable is removed from this process first, so only what benchEnvironment passes on is there.
 */
const registryNames = Object.values(variables).map((variable) => variable.name);
const functionEnvironment = Object.fromEntries(registryNames.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])));

describe('the bench sections', () => {
  beforeAll(() => {
    // Prepare: only the bench's own environment.
    for (const name of registryNames) delete process.env[name];
    Object.assign(
      process.env,
      benchEnvironment(
        {
          'mailwright-Sender': { ...functionEnvironment, NODE_OPTIONS: '--enable-source-maps' },
          // The workflow functions' own: the queue as a schedule target (infra/features/workflows.ts), which unit tests set per file.
          'mailwright-WorkflowRunner': { [variables.workflowQueueArn.name]: 'arn:aws:sqs:us-east-1:000000000000:workflows' },
        },
        1000,
      ),
    );
    Object.assign(process.env, queueEnvironment((name) => `http://127.0.0.1:9324/000000000000/${name}`));
  });

  it.each(Object.keys(SECTIONS))('%s loads', async (name) => {
    // Act
    const section = await SECTIONS[name]!();

    // Assess
    expect(section.title).toEqual(expect.any(String));
    expect(section.run).toEqual(expect.any(Function));
  });

  it('passes the template variables on, and points the SDK at the emulators as an administrator', () => {
    // Assess
    expect(process.env.ACCESS_TOKEN_SECRET).toBe(functionEnvironment.ACCESS_TOKEN_SECRET);
    expect(process.env.RATE_LIMIT_PER_MINUTE).toBe('1000');
    expect(process.env.TABLE_NAME).toBe('mailwright');
    expect(process.env.AWS_ENDPOINT_URL_DYNAMODB).toBe('http://127.0.0.1:8000');
    expect(process.env.NODE_OPTIONS).not.toBe('--enable-source-maps');
  });
});
