// The custom navigation bar: title, a back button that follows the app history, a right slot.
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { goBack } from '../lib/navigation.ts';
import { BackIcon } from './icons.tsx';

interface NavBarProps {
  title: ReactNode;
  back?: boolean;
  right?: ReactNode;
  plain?: boolean;
}

export function NavBar({ title, back = true, right, plain = false }: NavBarProps) {
  const { t } = useLingui();
  return (
    <header className={plain ? 'navbar plain' : 'navbar'}>
      <div className="nav-side">
        {back && (
          <button type="button" className="icon-button" onClick={() => goBack()} aria-label={t`Back`}>
            <BackIcon className="flip-rtl" />
          </button>
        )}
      </div>
      {/* The shell moves the focus here when the page opens: focusable by script, not a Tab stop. */}
      <h1 tabIndex={-1}>{title}</h1>
      <div className="nav-side">{right}</div>
    </header>
  );
}
