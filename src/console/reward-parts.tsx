// The small pieces the rewards panels share (RewardsPage.tsx, BlindBoxPanel.tsx): a save's busy
// state and outcome, the line that shows it, and a stored decimal as an operator writes it.
import { useRef, useState, type ReactNode } from 'react';
import { messageOf } from './api.ts';
import { ErrorLine } from './parts.tsx';

/** What the last save answered: the server's refusal, or that it was saved. */
export type Outcome = { error: string } | { done: true } | null;

/** A stored decimal as an operator writes it: "50.00000000" → "50". */
export const plain = (decimal: string) => (decimal.includes('.') ? decimal.replace(/\.?0+$/, '') : decimal);

/** The server's answer to a save: its refusal, or `done` in a status line. */
export function OutcomeLine({ outcome, done }: { outcome: Outcome; done: ReactNode }) {
  if (!outcome) return null;
  if ('error' in outcome) return <ErrorLine error={outcome.error} />;
  return (
    <p className="console-saved" role="status">
      {done}
    </p>
  );
}

/** Runs a save: busy while it runs, then its outcome. */
export function useSave() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const running = useRef(false);
  const run = async (save: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await save();
      setOutcome({ done: true });
    } catch (failure) {
      setOutcome({ error: messageOf(failure) });
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, outcome, run, clear: () => setOutcome(null) };
}
