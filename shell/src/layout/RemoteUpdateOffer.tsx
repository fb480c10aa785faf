/** What the visitor reads when a new release of the remote on screen is ready (shell/README.md lists it). */
export const updateOfferText = (title: string) => `A new version of ${title} is available.`;

/**
 * The offer of a remote's new release, above the running one (decisions/0046). The live region is always on
 * the page (polite: it waits for the screen reader to finish), so the sentence is announced when it appears;
 * Update is an ordinary button, reached with Tab.
 */
export function RemoteUpdateOffer({ title, offered, onUpdate }: { title: string; offered: boolean; onUpdate: () => void }) {
  return (
    <div aria-live="polite" data-testid="update-offer">
      {offered ? (
        <div className="gh-card gh-notice">
          <p>
            {updateOfferText(title)}{' '}
            <button type="button" className="gh-button" onClick={onUpdate}>
              Update
            </button>
          </p>
        </div>
      ) : null}
    </div>
  );
}
