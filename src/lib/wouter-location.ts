// What wouter imports as its default location hooks (`./use-browser-location.js`, vite.config.ts
// resolve.alias): the app's hash route (lib/navigation.ts), which the app's Router passes anyway. wouter's
// own module reads the path and patches history.pushState and replaceState on load; the app routes by
// hash and used neither (0.4 KB on every route's start).
export { useHashPath as useBrowserLocation, useHashQuery as useSearch } from './navigation.ts';
