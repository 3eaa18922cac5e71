// The tab bar's icons and the drawing helper of every icon (icons.tsx has the rest): the start
// chunk carries these five only.
import type { ReactNode } from 'react';

export const icon = (paths: ReactNode) =>
  function Icon({ className }: { className?: string }) {
    return (
      <svg
        className={className}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        {paths}
      </svg>
    );
  };

export const HomeIcon = icon(<path d="M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" />);
export const MarketsIcon = icon(<path d="M4 19V9m6 10V5m6 14v-7m4 7H2" />);
export const OptionsIcon = icon(<path d="M3 17l6-6 4 4 8-8m0 0h-5m5 0v5" />);
export const MiningIcon = icon(<path d="M12 3l8 4.5v9L12 21l-8-4.5v-9zm0 0v18m8-13.5l-8 4.5-8-4.5" />);
export const MineIcon = icon(<path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9a8 8 0 0 1 16 0" />);
