import { useEffect, useState } from 'react';

/** "in 4 min 05 s" until `at` (epoch ms), updated every second; "expired" once it has passed. */
export function formatRemaining(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((at - now) / 1000));
  if (seconds === 0) return 'expired';
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return minutes > 0 ? `in ${minutes} min ${rest} s` : `in ${seconds} s`;
}

/** The visitor's clock format, made once: the first one a page makes loads the locale's data (~15 ms of CPU). */
let clockFormat: Intl.DateTimeFormat | undefined;
export const clockTime = (at: number): string => (clockFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })).format(at);

/**
 * Runs `task` once the browser has painted what is on screen now: in a task after the next frame. An effect is not
 * enough: React runs the effects of a synchronous render (a session snapshot's update is one) before the browser
 * paints, so the first date format (the locale's data, ~55 ms at 4× CPU throttling) held back the heading.
 */
function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

export function Countdown({ at }: { at: number }) {
  const [now, setNow] = useState(() => Date.now());
  // the clock time comes after the first paint: the countdown is what the visitor reads first
  const [clock, setClock] = useState<string | null>(null);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => afterPaint(() => setClock(clockTime(at))), [at]);
  const remaining = formatRemaining(at, now);
  return (
    <span data-testid="token-countdown">
      {remaining === 'expired' ? remaining : `expires ${remaining}`}
      {clock === null ? null : <span className="gh-muted"> ({clock})</span>}
    </span>
  );
}
