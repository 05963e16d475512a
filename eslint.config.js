// The house rules, checked by `npm run lint` (part of `npm test`). The dependency rules
// encode docs/architecture.md: domains depend one way, web features never import each
// other, nothing reaches into the payments sandbox but the one place that mounts it, and
// no import cycles anywhere.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const dirs = (path) =>
  existsSync(path)
    ? readdirSync(path, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];

/**
 * Server layers, lowest first. A folder may import folders of its own layer or below,
 * never above. Infrastructure knows no domain; a domain never imports one that depends
 * on it (payments builds on courses, courses on educators, educators on accounts).
 * Composition (app.ts, composition/, main.ts, seed/, dev/, system/, pages/) may import anything.
 */
const SERVER_LAYERS = [
  ['db', 'http', 'email', 'storage', 'events', 'jobs', 'realtime', 'metrics'],
  ['accounts'],
  ['educators'],
  ['courses'],
  ['payments'],
  ['classroom'],
  ['attendance'],
  ['analytics'],
  ['clubs'],
  ['mailbox'],
  ['notifications'],
  ['contact'],
  ['admin'],
];

const serverZones = SERVER_LAYERS.flatMap((layer, i) =>
  layer.map((dir) => ({
    target: `./src/server/${dir}`,
    from: SERVER_LAYERS.slice(i + 1)
      .flat()
      .concat(['composition', 'seed', 'dev', 'system', 'pages'])
      .map((above) => `./src/server/${above}`),
    message: `src/server/${dir} sits below the folders it may not import (see docs/architecture.md): announce a domain event or take a callback instead.`,
  })),
);

/**
 * Domain events (docs/decisions/0036-wiring-you-can-see.md): each bus is announced on by its
 * own domain only; another domain may name it only to subscribe (`.inTransaction`,
 * `.afterCommit`), and a domain subscribes in one place, its `subscriptions.ts`, which
 * composition calls. A domain that needs another's event announced calls a function the
 * owner exports (courses' announceWaitlistPromoted, accounts' eraseAccount).
 */
const EVENT_BUSES = {
  accounts: 'accountEvents',
  courses: 'courseEvents',
  mailbox: 'mailboxEvents',
  payments: 'paymentEvents',
  clubs: 'clubEvents',
  classroom: 'classroomEvents',
};
const oneOf = (names) => `/^(${names.join('|')})$/`;
const SUBSCRIBE = oneOf(['inTransaction', 'afterCommit']);
const eventRules = SERVER_LAYERS.flat().flatMap((dir) => {
  const foreign = Object.entries(EVENT_BUSES)
    .filter(([owner]) => owner !== dir)
    .map(([, bus]) => bus);
  const announcesForeign = {
    selector: `MemberExpression[property.name=${oneOf(foreign)}]:not(MemberExpression[property.name=${SUBSCRIBE}] > MemberExpression.object)`,
    message: `Another domain's events are announced by that domain only: call the function it exports for it (ADR 0036), or subscribe in ${dir}/subscriptions.ts.`,
  };
  const subscribesOutside = {
    selector: `CallExpression > MemberExpression.callee[property.name=${SUBSCRIBE}][object.property.name=${oneOf(Object.values(EVENT_BUSES))}]`,
    message: `A domain subscribes to events in one place: src/server/${dir}/subscriptions.ts (called by composition, ADR 0036).`,
  };
  return [
    { files: [`src/server/${dir}/**/*.ts`], rules: { 'no-restricted-syntax': ['error', announcesForeign, subscribesOutside] } },
    { files: [`src/server/${dir}/subscriptions.ts`], rules: { 'no-restricted-syntax': ['error', announcesForeign] } },
  ];
});

/**
 * Each domain owns its tables (docs/decisions/0035-each-domain-owns-its-tables.md): a table
 * belongs to the folder its schema file is named for (src/server/db/schema/<owner>.ts). A
 * server folder imports its own schema file and the column helpers, never another's: it
 * reads and writes another domain's tables through what their owner exports (a function, a
 * relation or fragment of SQL). tests/unit/table-ownership.test.ts holds the same rule for
 * SQL written as text. Composition (seed/, dev/, system/, pages/, app.ts) may import any.
 */
const SCHEMA_DIR = 'src/server/db/schema';
const COMPOSITION_DIRS = ['db', 'seed', 'dev', 'system', 'pages', 'composition'];

/** Schema imports not untangled yet, file -> owners, each with its reason (shared with the test). */
const SCHEMA_IMPORTS_ALLOWED = existsSync(`${SCHEMA_DIR}/ownership-allowlist.json`)
  ? Object.fromEntries(
      Object.entries(JSON.parse(readFileSync(`${SCHEMA_DIR}/ownership-allowlist.json`, 'utf8')).schemaImports).map(([file, entry]) => [
        file,
        entry.owners,
      ]),
    )
  : {};

const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(`${dir}/${d.name}`) : /\.tsx?$/.test(d.name) ? [`${dir}/${d.name}`] : [],
  );

const schemaOwners = existsSync(SCHEMA_DIR)
  ? readdirSync(SCHEMA_DIR)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'columns.ts')
      .map((f) => f.slice(0, -3))
  : [];

const tableOwnershipZones = dirs('src/server')
  .filter((dir) => !COMPOSITION_DIRS.includes(dir))
  .flatMap((dir) => {
    const own = schemaOwners.includes(dir) ? [`./${dir}.ts`, './columns.ts'] : ['./columns.ts'];
    const message = `src/server/${dir} owns only its own tables (ADR 0035): read or write another domain's tables through what that domain exports (a function, or a SQL relation or fragment written in its folder).`;
    const files = filesUnder(`src/server/${dir}`);
    const plain = files.filter((f) => !SCHEMA_IMPORTS_ALLOWED[f]);
    const zones = plain.length ? [{ target: plain.map((f) => `./${f}`), from: `./${SCHEMA_DIR}`, except: own, message }] : [];
    return zones.concat(
      files
        .filter((f) => SCHEMA_IMPORTS_ALLOWED[f])
        .map((f) => ({
          target: `./${f}`,
          from: `./${SCHEMA_DIR}`,
          except: [...own, ...SCHEMA_IMPORTS_ALLOWED[f].map((o) => `./${o}.ts`)],
          message,
        })),
    );
  });

/** Each web feature is its own island: it may use components, lib and shared, never another feature. */
const webFeatureZones = dirs('src/web/features').map((feature) => ({
  target: `./src/web/features/${feature}`,
  from: './src/web/features',
  except: [`./${feature}`],
  message: 'A web feature never imports another feature: move the shared piece to components/ or lib/, or compose the features in app/.',
}));

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', '**/node_modules/**', '.test-output/**', 'drizzle/**', 'packages/*/drizzle/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/shared',
              from: ['./src/server', './src/web'],
              message: 'The contract (src/shared) is imported by both sides and imports neither.',
            },
            { target: './src/web', from: './src/server', message: 'The web app talks to the server over HTTP only.' },
            { target: './src/server', from: './src/web', message: 'The server never imports the web app.' },
            ...serverZones,
            ...tableOwnershipZones,
            {
              target: './src/web/lib',
              from: ['./src/web/features', './src/web/app', './src/web/components'],
              message: 'lib/ is below components and features.',
            },
            {
              target: './src/web/components',
              from: ['./src/web/features', './src/web/app'],
              message: 'Shared components never import a feature or the app.',
            },
            { target: './src/web/features', from: './src/web/app', message: 'Features never import the app that composes them.' },
            ...webFeatureZones,
            { target: './packages', from: ['./src', './tests'], message: 'A package stands alone: it never imports the product.' },
          ],
        },
      ],
    },
  },
  {
    // The payments sandbox is mounted in one place (the app's composition); nothing else may load it.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/composition/routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@agora/stripe-sandbox', '@agora/stripe-sandbox/*', '**/packages/stripe-sandbox/**'],
              message: 'Only src/server/composition/routes.ts mounts the payments sandbox.',
            },
          ],
        },
      ],
    },
  },
  ...eventRules,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // TypeScript checks names itself; plain scripts run on Node.
    files: ['**/*.{ts,tsx}'],
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // The payments sandbox's own pages run these in the browser.
    files: ['packages/*/src/assets/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
