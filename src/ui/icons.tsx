// Line icons drawn inline (no icon font to download), 24×24, currentColor.
import { icon } from './tab-icons.tsx';

export { HomeIcon, MarketsIcon, MineIcon, MiningIcon, OptionsIcon } from './tab-icons.tsx';

export const BackIcon = icon(<path d="M15 5l-7 7 7 7" />);
export const ChevronIcon = icon(<path d="M9 5l7 7-7 7" />);
export const SettingsIcon = icon(
  <>
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-2.9 1.2V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-2.9-1.2l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0-1.2-2.9H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.2-2.9l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 2.9-1.2V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 2.9 1.2l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0 1.2 2.9H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
  </>,
);
export const GlobeIcon = icon(
  <path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm-9-9h18M12 3a14 14 0 0 1 0 18 14 14 0 0 1 0-18z" />,
);
export const BellIcon = icon(<path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9m-4.3 13a2 2 0 0 1-3.4 0" />);
export const CompassIcon = icon(<path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm4-13l-2 6-6 2 2-6z" />);
export const ReadAllIcon = icon(<path d="M18 6L7 17l-5-5m20-2l-7.5 7.5L13 16" />);

// The account menu, the money and payout pages.
export const RechargeIcon = icon(<path d="M12 4v11m0 0l-4.5-4.5M12 15l4.5-4.5M4 19h16" />);
export const WithdrawIcon = icon(<path d="M12 15V4m0 0L7.5 8.5M12 4l4.5 4.5M4 19h16" />);
export const DetailsIcon = icon(<path d="M7 3h8l4 4v14H7zm8 0v4h4M10 11h6m-6 4h6" />);
export const BankCardIcon = icon(<path d="M3 6h18v12H3zm0 4h18M7 15h4" />);
export const WalletIcon = icon(<path d="M4 7h15a1 1 0 0 1 1 1v11H4a1 1 0 0 1-1-1V6a2 2 0 0 1 2-2h11v3m0 7h4" />);
export const ShieldIcon = icon(<path d="M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6zm-3 9l2 2 4-4" />);
export const CrownIcon = icon(<path d="M4 18h16M5 15l-1-8 5 4 3-6 3 6 5-4-1 8z" />);
export const PointsIcon = icon(<path d="M12 3l2.6 5.4 5.9.8-4.3 4.1 1 5.9L12 16.4 6.8 19.2l1-5.9-4.3-4.1 5.9-.8z" />);
export const TrashIcon = icon(<path d="M4 7h16M10 11v6m4-6v6M6 7l1 13h10l1-13M9 7V4h6v3" />);
export const CopyIcon = icon(<path d="M9 9h11v11H9zM5 15H4V4h11v1" />);
export const CameraIcon = icon(<path d="M4 8h3l2-3h6l2 3h3v11H4zm8 9a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z" />);
export const PlusIcon = icon(<path d="M12 5v14M5 12h14" />);
export const RecordIcon = icon(<path d="M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7" />);
export const ContractsIcon = icon(<path d="M7 4L3 8l4 4M3 8h14m0 12l4-4-4-4m4 4H7" />);
export const SavingsIcon = icon(
  <path d="M12 3c3 4 6 7.5 6 11a6 6 0 0 1-12 0c0-3.5 3-7 6-11zm-2.5 11.5a2.5 2.5 0 0 0 2.5 2.5" />,
);
export const SearchIcon = icon(<path d="M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zm5-2l5 5" />);
export const MinusIcon = icon(<path d="M5 12h14" />);

// Home's shortcuts to engagement and help, the share page, the web-view and the map pages.
export const CalendarIcon = icon(<path d="M4 6h16v14H4zm0 4h16M8 3v4m8-4v4m-7 8l2 2 4-4" />);
export const GiftIcon = icon(
  <path d="M4 10h16v4H4zm1 4h14v7H5zm7-4v11M12 10c-2-4-6-5-6-2s6 2 6 2zm0 0c2-4 6-5 6-2s-6 2-6 2z" />,
);
// A closed box with a question mark: what is inside is drawn (the blind box).
export const BoxIcon = icon(<path d="M4 9h16v11H4zM3 5h18v4H3zm7 8a2 2 0 1 1 2.6 1.9c-.4.2-.6.5-.6.9v.4m0 2.3v.01" />);
export const FlagIcon = icon(<path d="M5 21V4m0 0h11l-2 4 2 4H5" />);
export const ShareIcon = icon(
  <path d="M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm12 7a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4m0-11l-6.8 4" />,
);
export const HeadsetIcon = icon(
  <path d="M4 15v-3a8 8 0 0 1 16 0v3m-16 0a2 2 0 0 0 2 2h1v-5H6a2 2 0 0 0-2 2zm16 0a2 2 0 0 1-2 2h-1v-5h1a2 2 0 0 1 2 2zm-2 2c0 2-2 3-5 3" />,
);
export const BuildingIcon = icon(<path d="M4 21V5l8-2v18m0-12h8v12M3 21h18M7 8h2m-2 4h2m-2 4h2m6-3h2m-2 4h2" />);
export const InfoIcon = icon(<path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-5v-5m0-3v.01" />);
export const MapPinIcon = icon(
  <path d="M12 21s-7-6-7-12a7 7 0 0 1 14 0c0 6-7 12-7 12zm0-9a3 3 0 1 0 0-6 3 3 0 0 0 0 6z" />,
);
export const ExternalIcon = icon(<path d="M14 4h6v6m0-6l-9 9M18 14v6H4V6h6" />);
export const PencilIcon = icon(<path d="M4 20h4L19 9l-4-4L4 16zm9-13l4 4" />);
