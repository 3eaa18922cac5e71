// The order buttons of a form, or while the customer's time-out lasts (lib/time-out.ts) the time-out panel in their
// place: withdrawals and everything else on the page stay as they are. The panel's code and texts arrive only when
// it shows (TimeoutPanel.tsx), so an order page without a time-out carries next to nothing for it. The limits page
// and the reminder take the time-out's state through here too: one module for all who use it, so the order pages
// load it in one small chunk rather than two.
import { Suspense, lazy, type ReactNode } from 'react';
import { loadAreaMessages } from '../lib/i18n.ts';
import { timeOut, useTimeOut } from '../lib/time-out.ts';

export { noteTimeOut, receivedAt, timeOut } from '../lib/time-out.ts';

const TimeoutPanel = lazy(() =>
  Promise.all([import('./TimeoutPanel.tsx'), loadAreaMessages('protection')]).then(([panel]) => panel),
);

export function TimeoutGate({ children }: { children: ReactNode }) {
  const until = useTimeOut();
  if (!until) return children;
  return (
    <Suspense fallback={null}>
      <TimeoutPanel until={until} endsAt={timeOut.endsAt} />
    </Suspense>
  );
}
