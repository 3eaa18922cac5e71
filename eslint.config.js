// Lint: the boundaries the code keeps (ARCHITECTURE "Layout", STYLE "One rule, one home, many doors")
// are checked here, not remembered. Formatting is Prettier's (its options are in package.json).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';

const features = readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const client = ['./src/app', './src/features', './src/lib', './src/ui', './src/main.tsx', './sw'];

/** Which folder may import which; each zone: files under `target` may not import from `from`. */
const boundaries = [
  // A feature uses ui/, lib/ and contract/, never another feature's internals, and never the shell.
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another feature: shared state goes in lib/, shared components in ui/.',
  })),
  { target: './src/features', from: './src/app', message: 'app/ composes features; a feature never imports the shell.' },
  // ui/ and lib/ carry no product area.
  { target: ['./src/ui', './src/lib'], from: ['./src/features', './src/app'], message: 'ui/ and lib/ import no feature and not the shell.' },
  // The contract is the one thing both sides share: it imports neither.
  { target: './src/contract', from: [...client, './src/server'], message: 'contract/ imports neither the client nor the server.' },
  // The server takes only the contract from the client side; the PWA never imports the server.
  { target: './src/server', from: client, message: 'server/ imports only src/contract from the client side.' },
  { target: ['./src/app', './src/features', './src/lib', './src/ui', './src/main.tsx', './sw'], from: './src/server', message: 'The PWA never imports the server.' },
  // The operator console's calls are the console's own (issue 30): none of them in the customer app's chunks.
  {
    target: client,
    from: [
      './src/contract/console.ts',
      './src/contract/console-content.ts',
      './src/contract/console-products.ts',
      './src/contract/console-rewards.ts',
      './src/contract/console-service.ts',
      './src/contract/console-texts.ts',
    ],
    message: 'The customer app never imports the console contract (contract/console*.ts).',
  },
  // The operator console (src/console, its own build): the contract and its own files, no customer app code; nothing imports it.
  {
    target: './src/console',
    from: ['./src/features', './src/app', './src/server', './sw', './src/main.tsx'],
    message: 'The console never imports the customer app or the server.',
  },
  { target: [...client, './src/contract', './src/server'], from: './src/console', message: 'Nothing outside src/console imports the console (none of it in the app’s chunks).' },
  // App code and the service worker share constants through a neutral place, not through sw/.
  {
    target: ['./src/app', './src/features', './src/lib', './src/ui', './src/main.tsx'],
    from: './sw',
    message: 'App code does not import sw/: shared constants live where both import them.',
  },
  // The core imports no door.
  {
    target: ['./src/server/domain', './src/server/market', './src/server/jobs', './src/server/db'],
    from: ['./src/server/http', './src/server/ops'],
    message: 'The server core imports no door (http/, ops/).',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', 'test-results/', '.scratch/', 'src/locales/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  prettier,
);
