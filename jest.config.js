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
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], setupFiles: ['<rootDir>/test/support/unit-env.ts'] },
    {
      ...common,
      displayName: 'infra',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts'],
      // The stack is synthesized once per run; the files read its template (test/support/infra-template.ts).
      globalSetup: '<rootDir>/test/support/infra-setup.ts',
      globalTeardown: '<rootDir>/test/support/infra-teardown.ts',
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // Black-box tests start admin CLI processes and wait on queues: seconds each on 2 busy cores.
      // jest accepts no testTimeout inside a project, so a setup file sets it.
      setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'],
      globalSetup: '<rootDir>/test/support/integration-setup.ts',
      globalTeardown: '<rootDir>/test/support/integration-teardown.ts',
    },
  ],
};
