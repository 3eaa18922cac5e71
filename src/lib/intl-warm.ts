// The dedicated worker of warmIntl (lib/i18n.ts): formats once with a number and a date formatter of
// the tag it is named after, then ends. A dedicated worker runs in the page's own process, and ICU
// keeps the locale data it loads for the whole process: the page's first formatter then finds it loaded.
import { warmFormats } from './intl-formats.ts';

warmFormats(self.name);
self.close();
