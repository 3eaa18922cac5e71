// The customer's anti-phishing code as the app shows it: a shield, the label, the code in bold on the
// brand's light tint. The same on its settings page and at the top of a security notice, so the
// customer learns what a genuine message of ours looks like.
import type { ReactNode } from 'react';
import { ShieldIcon } from './icons.tsx';

export function AntiPhishingBadge({ label, code }: { label: ReactNode; code: string }) {
  return (
    <p className="anti-phishing-badge">
      <ShieldIcon />
      <span>
        <span className="anti-phishing-label">{label}</span> <bdi className="anti-phishing-code">{code}</bdi>
      </span>
    </p>
  );
}
