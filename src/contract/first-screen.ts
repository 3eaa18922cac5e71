// The page with the first screens (src/build/first-screen.ts) holds every start page's; CSS shows the one of the route
// in the address. This script, inline in the page's <head>, names that route on <html data-route> before the body is
// parsed, so the right screen is there from the first paint (Chromium matches `:target`, the CSS that needs no script,
// only after a first paint of the boot splash). The server allows it by its hash in the Content-Security-Policy.

/** The route in the hash, less its query: `#/pages/mine/mine?x=1` → `/pages/mine/mine`. */
export const ROUTE_MARK_SCRIPT = "document.documentElement.dataset.route=location.hash.slice(1).split('?')[0]";
