import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';

/*
 * Boundaries (docs/ARCHITECTURE.md "Layers, and which may import which"): the rules below keep the layers apart, and
 * server/src/boundaries.test.ts proves each one fails on a deliberate violation.
 */

/** Every folder of web/src/features: each new feature is fenced in by the web rules below without editing them. */
const webFeatures = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * One config block per folder. Blocks replace each other's `no-restricted-imports` rather than add to it, so every
 * block repeats the rule that keeps the server out of the web client and the reverse.
 */
function serverLayers(forbidden) {
  return Object.entries(forbidden).map(([files, patterns]) => ({
    files: [files],
    // Tests drive a layer from the outside (a live test pays through the ledger to see the balance event).
    ignores: patterns.length ? ['**/*.test.ts'] : [],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/web/**'], message: 'The server and the web client meet only in common/.' },
            ...(patterns.length ? [{ group: patterns, message: `Not from ${files}: see docs/ARCHITECTURE.md.` }] : []),
          ],
        },
      ],
    },
  }));
}

/** The roles a server file may name after its domain: `chat.service.ts`, `chat-room.job.ts`, `core.tables.ts`. */
const serverRoles = 'routes|service|repository|presenter|policy|commands|tables|presence|page|job';

/**
 * File names (eslint-plugin-check-file; docs/decisions.md, issue 23 item 5). The server: `<domain>.<role>.ts` or a
 * kebab-case helper, tests `<name>[.<aspect>].test.ts`; common/: kebab-case; the web client: components and pages
 * PascalCase `.tsx`, hooks `useX.ts`, the rest kebab-case (a test or fixture takes its subject's name).
 */
const fileNames = [
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': ['error', { 'server/src/**/*.ts': `+([a-z0-9-])?(.@(${serverRoles}))` }],
    },
  },
  {
    files: ['server/src/**/*.test.ts', 'common/**/*.ts'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { 'server/src/**/*.ts': 'KEBAB_CASE', 'common/**/*.ts': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        {
          'web/src/**/{components,pages}/**/*.tsx': 'PASCAL_CASE',
          // A component's test, or a hook's (a hook tested with a component: `useX.test.tsx`).
          'web/src/**/*.tsx': '@(*([A-Z]*([a-z0-9]))|use*([A-Z]*([a-z0-9]))|+([a-z])*([a-z0-9])*(-+([a-z0-9])))',
          'web/src/**/use[A-Z]*.ts': 'use*([A-Z]*([a-z0-9]))',
          'web/src/**/!(use[A-Z]*).ts': 'KEBAB_CASE',
        },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: ['node_modules', 'dist', 'data', 'test-results', 'playwright-report', 'e2e-screenshots', 'bench/results'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { import: importPlugin },
    // Library files are never read for the import rules: they are no part of any cycle of ours.
    settings: { ...importPlugin.flatConfigs.typescript.settings, 'import/ignore': ['node_modules'] },
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A cycle means two files that cannot be understood (or loaded) one without the other.
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The web client and the server meet only in common/: neither imports the other.
    files: ['web/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**'] }],
      // The API schemas are TypeBox values; the browser takes only their Static<> types, so TypeBox stays out of it.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/common/api/*', 'typebox', 'typebox/*'],
              allowTypeImports: true,
              message: 'Only types from common/api and typebox (`import type`): TypeBox stays out of the bundle.',
            },
          ],
        },
      ],
      // Layers (bulletproof-react): app/ and pages/ compose features; a feature shows others only its api/ folder;
      // lib/, hooks/ and components/ are shared by all, so they import none of the above.
      'import/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './web/src/features',
              from: ['./web/src/app', './web/src/pages'],
              message: 'A feature never imports the shell or a page: shared code goes to lib/, hooks/ or components/.',
            },
            ...webFeatures.map((name) => ({
              target: `./web/src/features/${name}`,
              from: './web/src/features',
              except: [`./${name}`, ...webFeatures.filter((other) => other !== name).map((other) => `./${other}/api`)],
              message: "A feature uses another feature's api/ folder only, never its components or lib.",
            })),
            {
              target: ['./web/src/lib', './web/src/hooks', './web/src/components'],
              from: ['./web/src/features', './web/src/pages', './web/src/app'],
              message: 'Shared code (lib/, hooks/, components/) never imports a feature, a page or the shell.',
            },
            {
              target: './web/src/pages',
              from: './web/src/app',
              message: 'The shell renders the pages, never the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    // Hooks run in the same order on every render and see every value they read (docs/decisions.md, issue 23 item 5):
    // the plugin's recommended set, with a missing dependency an error rather than a warning.
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its error, and a switch over a union names every member (a new
    // member is a compile-time list of the places to decide about it).
    files: ['server/**/*.ts', 'common/**/*.ts', 'web/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  // File names follow the layout (docs/ARCHITECTURE.md): see fileNames below.
  ...fileNames,
  // Server layers (docs/ARCHITECTURE.md): each folder may import only the ones below it.
  ...serverLayers({
    'common/**': ['**/server/**'],
    'server/**': [],
    // A module uses another module through its service (or commands), never its repository or routes.
    'server/src/modules/**': ['../*/*.repository', '../*/*.routes'],
    // Presenters at the edge (docs/decisions.md): services and repositories return rows; routes present them.
    'server/src/modules/*/*.{service,repository}.ts': ['../*/*.repository', '../*/*.routes', './*.presenter'],
    'server/src/{jobs,seed,admin}/**': ['**/modules/*/*.repository', '**/modules/*/*.routes'],
    // The ledger moves money for everyone and knows none of them, nor how answers or live events are made.
    'server/src/ledger/**': ['../http/*', '../live/*', '../modules/**'],
    'server/src/db/**': ['../http/*', '../live/*', '../ledger/*', '../modules/**'],
    'server/src/live/**': ['../http/*', '../ledger/*', '../modules/**'],
    'server/src/http/**': ['../live/*', '../modules/**'],
  }),
  {
    // One way out for live events (docs/ARCHITECTURE.md "Live events"): a module, job, seed or admin command raises
    // them with `work.emit` in a unit of work, which hands them over after the commit; never on the bus or the hub.
    files: ['server/src/{modules,jobs,seed,admin}/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'CallExpression[callee.property.name=/^(publish|deliver)$/]',
          "CallExpression[callee.property.name='send'][callee.object.name='bus']",
          "CallExpression[callee.property.name='send'][callee.object.property.name='bus']",
        ].map((selector) => ({
          selector,
          message: 'Live events leave through the unit of work: work.emit(…) (docs/ARCHITECTURE.md "Live events").',
        })),
      ],
    },
  },
);
