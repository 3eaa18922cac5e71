import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// The app's six locales (en, zh, th, jp, ar, hi); `jp` is the product's code for Japanese (Intl uses `ja`).
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'zh', 'th', 'jp', 'ar', 'hi'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    { path: '<rootDir>/src/locales/{locale}/messages', include: ['<rootDir>/src'], exclude: ['**/server/**'] },
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
