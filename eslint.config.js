import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const folders = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * Import boundaries (ARCHITECTURE.md, "Layers"). Each zone forbids `target` files from importing `from` files.
 * The lint tests in scripts/lint-boundaries.test.ts prove every rule fails on a deliberate violation.
 */
function appZones(app) {
  const src = `apps/${app}/src`;
  const features = folders(`${src}/features`);
  return [
    // Features do not import each other: shared code goes to lib/ or @exam/ui, composition happens in app/.
    ...features.map((feature) => ({
      target: `${src}/features/${feature}`,
      from: `${src}/features`,
      except: [`./${feature}`],
      message: 'features do not import each other; compose them in app/ or move the shared part to lib/',
    })),
    { target: `${src}/features`, from: `${src}/app`, message: 'features do not import the app layer above them' },
    {
      target: [`${src}/lib`, `${src}/config`],
      from: [`${src}/features`, `${src}/app`],
      message: 'lib/ and config/ sit below features and app',
    },
  ];
}

function serviceZones(service) {
  const src = `services/${service}/src`;
  const top = [`${src}/app.ts`, `${src}/server.ts`];
  return [
    {
      target: [`${src}/db`, `${src}/adapters`, `${src}/engine`, `${src}/scoring`, `${src}/access`],
      from: [`${src}/modules`, `${src}/jobs`, ...top],
      message: 'db/, adapters/, engine/, scoring/ and access/ sit below modules and jobs',
    },
    { target: `${src}/modules`, from: [`${src}/jobs`, ...top], message: 'modules do not import jobs or the app' },
    { target: `${src}/jobs`, from: top, message: 'jobs do not import the app' },
  ];
}

/**
 * Each service's modules, lowest first (ARCHITECTURE.md, "Module order"). A module imports only modules listed
 * before it, so no two modules import each other; a module folder missing from its list fails every lint run.
 */
const moduleOrder = {
  'exam-service': [
    'organizations',
    'auth',
    'materials',
    'exams',
    'sharing',
    'audit',
    'bank',
    'interchange',
    'public',
    'preview',
    'roster',
    'lti',
    'internal',
    'admin',
    'privacy',
  ],
  'llm-gateway': [
    'chat',
    'agent-endpoint',
    'transcripts',
    'usage',
    'grading',
    'solvability',
    'audit',
    'follow-up',
    'privacy',
  ],
  'results-service': [
    'submissions',
    'lti',
    'accommodations',
    'attempts',
    'results',
    'grading',
    'question-grading',
    'suggestions',
    'follow-up',
    'timeline',
    'receipts',
    'collaboration',
    'insights',
    'reports',
    'live',
    'internal',
    'privacy',
  ],
  'workspace-orchestrator': ['sessions', 'proxy', 'runner', 'status', 'privacy'],
};

/** The zones of one service's module order, given the module folders present (exported for the lint tests). */
export function moduleOrderZones(
  service,
  // An emptied folder left behind by a move (git does not track folders) is not a module.
  present = folders(`services/${service}/src/modules`).filter(
    (module) => readdirSync(join(root, `services/${service}/src/modules/${module}`)).length > 0,
  ),
) {
  const src = `services/${service}/src`;
  const order = moduleOrder[service];
  if (!order) return [];
  const unlisted = present.filter((module) => !order.includes(module));
  if (unlisted.length > 0) {
    throw new Error(`eslint.config.js moduleOrder['${service}'] does not place: ${unlisted.join(', ')}`);
  }
  const placed = order.filter((module) => present.includes(module));
  return placed.flatMap((module, index) => {
    const above = placed.slice(index + 1);
    if (above.length === 0) return [];
    return [
      {
        target: `${src}/modules/${module}`,
        from: above.map((other) => `${src}/modules/${other}`),
        message: `modules/${module} sits below ${above.join(', ')} in ${service}'s module order (eslint.config.js moduleOrder)`,
      },
    ];
  });
}

const boundaryZones = [
  ...['creator-web', 'taker-web'].flatMap(appZones),
  ...folders('services').flatMap(serviceZones),
  ...folders('services').flatMap((service) => moduleOrderZones(service)),
  // Services never import each other; apps never import services.
  ...folders('services').map((service) => ({
    target: `services/${service}`,
    from: 'services',
    except: [`./${service}`],
    message: 'services talk over HTTP (server-kit internal client), never by import',
  })),
  { target: 'apps', from: 'services', message: 'apps reach services over HTTP only' },
];

/** Test helpers (src/testing/, *.testing.ts, @exam/*\/testing, msw) are for tests only. */
const testOnlyImports = {
  patterns: [
    {
      group: ['**/testing', '**/testing/**', '**/testing.ts', '**/*.testing.ts', '@exam/*/testing', 'msw', 'msw/*'],
      message: 'test helpers are imported by tests only',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.data/**',
      '**/drizzle/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
  },
  {
    files: ['{apps,services,packages}/*/src/**/*.{ts,tsx}'],
    ignores: [
      '**/*.test.{ts,tsx}',
      '**/*.pg-suite.ts',
      '**/testing/**',
      '**/testing.ts',
      '**/*.testing.ts',
      '**/*.real-image.ts',
    ],
    rules: { 'no-restricted-imports': ['error', testOnlyImports] },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // unhomoglyph is Unicode's confusables table as a pure function (candidate-key.ts), no I/O.
              regex: '^(?!zod$|zod/|unhomoglyph$|\\.{1,2}/)',
              message: 'the domain holds pure rules: it imports only zod, the confusables table and itself',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/client/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@exam/domain/|\\.{1,2}/)',
              message: 'the client transport runs in browsers and Node alike: it imports only the domain and itself',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/interchange/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|fflate$|fast-xml-parser$|@exam/domain/|\\.{1,2}/)',
              message: 'interchange is pure conversion: zod, fflate, fast-xml-parser, the domain and itself',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/**/*.tsx', 'packages/ui/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
