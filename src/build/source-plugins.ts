import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { catalogsByArea } from './catalogs-by-area.ts';
import { apiContractAnswersServerOnly } from './api-contract-answers-server-only.ts';
import { apiContractTextIdsOnly } from './api-contract-text-ids-only.ts';
import { cachedCalls } from './cached-calls.ts';

/**
 * What turns the app's source into its modules, for every build of it (the app's, and its first screens' for Node):
 * JSX with Lingui's macros, the catalogs in parts by area, the API contract's texts as ids only and its answers'
 * schemas left to the server, and the list of cached calls.
 */
export const sourcePlugins = () => [
  react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
  lingui(),
  catalogsByArea(),
  apiContractTextIdsOnly(),
  apiContractAnswersServerOnly(),
  cachedCalls(),
];
