import type { Section, StandaloneSection } from './report';

/**
 * Every section by its BENCH_SECTIONS name, in running order (test/bench/run.ts). Each is imported
 * only when selected, and after the environment points at the stack: see pointServiceAtStack in
 * test/bench/dynamo.ts. Sections named in STANDALONE need no stack. test/unit/test/bench/sections.test.ts loads each one the same way.
 */
export const SECTIONS: Record<string, () => Promise<Section | StandaloneSection>> = {
  // Needs no stack: runs first, and alone starts none.
  pacer: async () => (await import('./pacer')).pacerSection,
  // Before the sections that add contacts: its campaign's audience is the seeded project's.
  cost: async () => (await import('./cost')).costSection,
  contacts: async () => (await import('./contacts')).contactsSection,
  // Sending before tracking: its throughput run leaves a backlog, which it drains before returning.
  sending: async () => (await import('./sending')).sendingSection,
  tracking: async () => (await import('./tracking')).trackingSection,
  segments: async () => (await import('./segments')).segmentsSection,
  imports: async () => (await import('./imports')).importsSection,
  workflows: async () => (await import('./workflows')).workflowsSection,
  webhooks: async () => (await import('./webhooks')).webhooksSection,
  campaigns: async () => (await import('./campaigns')).campaignsSection,
  // Last: it starts a stack of its own with LOCAL_FAULTS and does not use the bench's.
  faults: async () => (await import('./faults')).faultsSection,
};

/** The sections that run without a stack (StandaloneSection). */
export const STANDALONE = new Set(['pacer']);
