// Lint: the boundaries the code keeps (which folder may import which; each rule in one home that every entry point
// calls) are checked here, not remembered. Formatting is Prettier's (its options are in package.json).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';

const features = readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const client = ['./src/app', './src/features', './src/lib', './src/ui', './src/main.tsx', './sw'];

/** Which folder may import which; each zone: files under `target` may not import from `from`. */
const boundaries = [
  // A feature uses ui/, lib/ and api-contract/, never another feature's internals, and never the shell.
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another feature: shared state goes in lib/, shared components in ui/.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'app/ composes features; a feature never imports the shell.',
  },
  // ui/ and lib/ carry no product area.
  {
    target: ['./src/ui', './src/lib'],
    from: ['./src/features', './src/app'],
    message: 'ui/ and lib/ import no feature and not the shell.',
  },
  // lib/ sits below ui/: state and calls, no components.
  {
    target: './src/lib',
    from: './src/ui',
    message: 'lib/ never imports ui/: a component that needs lib/ lives in ui/ (or a feature).',
  },
  // The API contract is the one thing both sides share: it imports neither.
  {
    target: './src/api-contract',
    from: [...client, './src/server'],
    message: 'api-contract/ imports neither the client nor the server.',
  },
  // The server takes only the API contract from the client side; the PWA never imports the server.
  { target: './src/server', from: client, message: 'server/ imports only src/api-contract from the client side.' },
  {
    target: ['./src/app', './src/features', './src/lib', './src/ui', './src/main.tsx', './sw'],
    from: './src/server',
    message: 'The PWA never imports the server.',
  },
  // The operator console's calls are the console's own: none of them in the customer app's chunks.
  {
    target: client,
    from: [
      './src/api-contract/console.ts',
      './src/api-contract/console-content.ts',
      './src/api-contract/console-products.ts',
      './src/api-contract/console-rewards.ts',
      './src/api-contract/console-service.ts',
      './src/api-contract/console-texts.ts',
    ],
    message: 'The customer app never imports the console part of the API contract (api-contract/console*.ts).',
  },
  // The operator console (src/console, its own build): the API contract and its own files, no customer app code;
  // nothing imports it.
  {
    target: './src/console',
    from: ['./src/features', './src/app', './src/server', './sw', './src/main.tsx'],
    message: 'The console never imports the customer app or the server.',
  },
  // Of the customer app's lib/ the console takes only the client core (the wire format, how typed numbers are read) and
  // the formatters made once: no app state.
  {
    target: './src/console',
    from: './src/lib',
    except: ['./call-core.ts', './formatter-once.ts', './typed-amount.ts', './typed-digits.ts'],
    message:
      'The console imports only lib/call-core.ts, lib/formatter-once.ts and lib/typed-*.ts from lib/ (no app state).',
  },
  {
    target: [...client, './src/api-contract', './src/server'],
    from: './src/console',
    message: 'Nothing outside src/console imports the console (none of it in the app’s chunks).',
  },
  // The build's plugins (src/build) run in the build only: no code of the app, the worker, the console, the API
  // contract or the server imports them.
  {
    target: [...client, './src/console', './src/api-contract', './src/server'],
    from: './src/build',
    message: 'Only vite.config.ts and the tests import src/build (the build).',
  },
  // App code and the service worker share constants through a neutral place, not through sw/.
  {
    target: ['./src/app', './src/features', './src/lib', './src/ui', './src/main.tsx'],
    from: './sw',
    message: 'App code does not import sw/: shared constants live where both import them.',
  },
  // The core imports no entry point.
  {
    target: [
      './src/server/domain',
      './src/server/market',
      './src/server/jobs',
      './src/server/db',
      './src/server/delivery',
    ],
    from: ['./src/server/http', './src/server/ops'],
    message: 'The server core imports no entry point (http/, ops/).',
  },
  // The database (schema, migrations, seeds) sits below the domain: a seed writes rows, it calls no domain rule.
  {
    target: './src/server/db',
    from: './src/server/domain',
    message: 'db/ (and its seeds) imports no domain file: the domain sits above the database.',
  },
  // A route file declares its own routes: what two of them share lives in the domain or in an http/ module that is no
  // route file.
  {
    target: './src/server/http/*-routes.ts',
    from: './src/server/http/*-routes.ts',
    message: 'A route file never imports another route file.',
  },
];

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'test-results/', '.scratch/', 'src/locales/', 'public/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    // Imports resolve as Node resolves them (the boundaries below read our .ts/.tsx/.js files, never a package's).
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/ignore': ['node_modules'],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      // No import circles, type imports included: import-x/no-cycle skips type imports with no option to count them, so
      // `npm run lint` checks circles after ESLint with madge (tests/import-cycles.ts), which counts every import.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  prettier,
  // Prettier wraps code at 120 columns but leaves comments as written: a comment line stays within 120 too.
  { files: ['**/*.{ts,tsx,js,mjs}'], rules: { 'max-len': ['error', { code: 1000, comments: 120, ignoreUrls: true }] } },
);
