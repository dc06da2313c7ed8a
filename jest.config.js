// ESM all the way (package.json "type": "module"): middy 5+ ships ESM only, so jest runs with
// --experimental-vm-modules and ts-jest's ESM preset. Type checking is `npm run typecheck`.
const tsJest = {
  '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
};
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: tsJest,
  testEnvironment: 'node',
};

export default {
  // Black-box tests start admin CLI processes and wait on queues: seconds each on 2 busy cores.
  // testTimeout is a global option (jest ignores it inside a project), so it is set here for all.
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], setupFiles: ['<rootDir>/test/unit/env.ts'] },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // Black-box tests start admin CLI processes and wait for queues: seconds each on 2 busy cores.
      testTimeout: 60_000,
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
    },
  ],
};
