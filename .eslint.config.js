// `npm run lint`: typescript-eslint's recommended rules and the layers of the code (README "Map of
// the code"). A dotfile so the top level keeps only the folders and files the design card names.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

/** shared/ floors that every domain stands on: they never import a domain. */
const lowFloors = ['http', 'db', 'aws', 'config', 'observability'];
const dashboardFeatures = './functions/dashboard/app/src/features';

const folders = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const layerZones = [
  // The deployable code never reaches into the deployment, and shared code into neither.
  { target: './functions', from: './infra', message: 'functions/ imports only shared/: infra is built on them, never the reverse.' },
  { target: './shared', from: './infra', message: 'shared/ never imports infra/.' },
  { target: './shared', from: './functions', message: 'shared/ never imports functions/: handlers call shared, not the reverse.' },
  { target: './infra', from: './functions', except: ['./dashboard/app/scripts'], message: 'infra/ builds functions from their entry paths; it imports only shared/.' },
  ...lowFloors.map((floor) => ({
    target: `./shared/${floor}`,
    from: './shared',
    except: lowFloors.map((low) => `./${low}`),
    message: `shared/${floor} is a low floor: it never imports a domain (move the type down, or the code up).`,
  })),
  ...folders(dashboardFeatures).map((feature) => ({
    target: `${dashboardFeatures}/${feature}`,
    from: dashboardFeatures,
    except: [`./${feature}`],
    message: 'Dashboard features never import each other: share through lib/ or components/.',
  })),
];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.mailwright/', 'functions/dashboard/dist/', 'client/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } },
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      'import/no-restricted-paths': ['error', { zones: layerZones }],
      // Unused names are the compiler's job (tsconfig noUnusedLocals); `_`-prefixed ones are deliberate.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests read synthesized templates, SDK calls and responses as loose JSON.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
