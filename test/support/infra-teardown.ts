import { rmSync } from 'node:fs';
import path from 'node:path';
import { STACK_TEMPLATE_VARIABLE } from './infra-setup';

export default function globalTeardown() {
  const file = process.env[STACK_TEMPLATE_VARIABLE];
  if (file) rmSync(path.dirname(file), { recursive: true, force: true });
}
