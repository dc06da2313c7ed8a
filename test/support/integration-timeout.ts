import { jest } from '@jest/globals';

/** Each black-box test may take a minute: it starts admin CLI processes and waits on queues. */
jest.setTimeout(60_000);
