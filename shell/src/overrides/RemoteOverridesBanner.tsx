import type { OverridesResult } from './RemoteOverrides';

export interface RemoteOverridesBannerProps {
  readonly overrides: Pick<OverridesResult, 'active' | 'refused'>;
  /** forgets the overrides of this tab and reloads the page with the registry's addresses */
  readonly onClear: () => void;
}

/**
 * Says, on every page, that this tab loads remotes from other addresses than the registry's (with a way
 * back), and why an override that was asked for was refused. Nothing is shown when neither is the case.
 */
export function RemoteOverridesBanner({ overrides, onClear }: RemoteOverridesBannerProps) {
  const { active, refused } = overrides;
  if (active.length === 0 && refused.length === 0) return null;
  return (
    <aside className="gh-card gh-notice" aria-label="Remote overrides" data-testid="remote-overrides">
      {active.length > 0 && (
        <p role="status">
          <span className="gh-badge">Override active</span> This tab loads{' '}
          {active.map((override, index) => (
            <span key={override.name}>
              {index > 0 && ', '}
              <strong>{override.name}</strong> from <code>{override.manifest}</code>
              {override.unverified && " (not verified: its signed releases are checked at the registry's address only)"}
            </span>
          ))}
          .{' '}
          <button type="button" className="gh-button secondary" onClick={onClear}>
            Clear overrides
          </button>
        </p>
      )}
      {refused.map((override) => (
        <p key={override.name} role="alert" className="gh-error">
          The override of <strong>{override.name}</strong> to <code>{override.manifest}</code> was refused: {override.reason}
        </p>
      ))}
    </aside>
  );
}
