import { useEffect, useState } from 'react';

/** "in 4 min 05 s" until `at` (epoch ms), updated every second; "expired" once it has passed. */
export function formatRemaining(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((at - now) / 1000));
  if (seconds === 0) return 'expired';
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return minutes > 0 ? `in ${minutes} min ${rest} s` : `in ${seconds} s`;
}

export function Countdown({ at }: { at: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const remaining = formatRemaining(at, now);
  return (
    <span data-testid="token-countdown">
      {remaining === 'expired' ? remaining : `expires ${remaining}`} <span className="gh-muted">({new Date(at).toLocaleTimeString()})</span>
    </span>
  );
}
