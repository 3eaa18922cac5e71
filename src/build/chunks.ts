// The facts the build's chunks are made by: which pages a visit starts on, and the names of the chunks.

/** The pages a visit starts on, in src/features: the five tabs' and login's. */
export const TAB_PAGES = [
  'home/HomePage.tsx',
  'markets/CoinListPage.tsx',
  'options/OptionPage.tsx',
  'lockup/LockupPage.tsx',
  'profile/MinePage.tsx',
];
export const LOGIN_PAGE = 'account/LoginPage.tsx';
/** The chunk of what every start needs (its stylesheet goes inline in index.html: stylesInline). */
export const START_CHUNK = 'shell';
const chunkName = (page: string) => page.replace(/^.*\/|\.tsx$/g, '');
/** The chunks a visit starts with: those pages and the startup message's dialog (a test on the chunks' file names). */
export const STARTUP_CHUNKS = new RegExp(
  `(^|/)(${[...TAB_PAGES, LOGIN_PAGE, 'FirstUnreadDialog'].map(chunkName).join('|')})-[\\w-]+\\.js$`,
);
/** The catalog areas a visit starts in (src/lib/i18n.ts startAreas), besides the shell's. */
export const START_AREAS = ['home', 'markets', 'options', 'lockup', 'profile', 'account', 'messages'];
