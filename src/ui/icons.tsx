// Line icons drawn inline (no icon font to download), 24×24, currentColor.
import type { ReactNode } from 'react';

const icon = (paths: ReactNode) =>
  function Icon({ className }: { className?: string }) {
    return (
      <svg className={className} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        {paths}
      </svg>
    );
  };

export const BackIcon = icon(<path d="M15 5l-7 7 7 7" />);
export const ChevronIcon = icon(<path d="M9 5l7 7-7 7" />);
export const HomeIcon = icon(<path d="M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" />);
export const MarketsIcon = icon(<path d="M4 19V9m6 10V5m6 14v-7m4 7H2" />);
export const OptionsIcon = icon(<path d="M3 17l6-6 4 4 8-8m0 0h-5m5 0v5" />);
export const MiningIcon = icon(<path d="M12 3l8 4.5v9L12 21l-8-4.5v-9zm0 0v18m8-13.5l-8 4.5-8-4.5" />);
export const MineIcon = icon(<path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-8 9a8 8 0 0 1 16 0" />);
export const SettingsIcon = icon(
  <>
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-2.9 1.2V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-2.9-1.2l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0-1.2-2.9H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.2-2.9l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 2.9-1.2V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 2.9 1.2l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0 1.2 2.9H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
  </>,
);
export const GlobeIcon = icon(<path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm-9-9h18M12 3a14 14 0 0 1 0 18 14 14 0 0 1 0-18z" />);
export const BellIcon = icon(<path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9m-4.3 13a2 2 0 0 1-3.4 0" />);
export const CompassIcon = icon(<path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm4-13l-2 6-6 2 2-6z" />);
export const ReadAllIcon = icon(<path d="M18 6L7 17l-5-5m20-2l-7.5 7.5L13 16" />);
