import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { LocalStack } from './local-stack';

/**
 * Signing in to the dashboard in browser tests, in one place: as the local owner the stack seeds
 * (owner@<LOCAL_SENDER_DOMAIN>, its password kept in the stack's data folder), through the form.
 */
export function localOwner(stack: Pick<LocalStack, 'dataDir'>): { email: string; password: string } {
  return JSON.parse(readFileSync(path.join(stack.dataDir, 'local-owner.json'), 'utf8')) as { email: string; password: string };
}

/** Opens the dashboard, signs in through its form, and waits for the Overview. */
export async function signIn(page: Page, stack: Pick<LocalStack, 'baseUrl' | 'dataDir'>) {
  const owner = localOwner(stack);
  await page.goto(`${stack.baseUrl}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}
