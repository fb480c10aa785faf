import { browser, flush } from '../../test-support/sessions';
import { inputTarget, pageVisibility, providerFrames, use } from '../../test-support/watchTabs';

beforeEach(() => jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('with the frame running, the leading tab asks the provider too (the frame can miss a revocation)', () => {
  /** `count` signed-in tabs of one browser whose login-status frame keeps running */
  async function frameTabs(count: number) {
    const b = browser();
    const tabs = [];
    for (let i = 0; i < count; i += 1) {
      const visibility = pageVisibility();
      const activity = inputTarget();
      const tab = await b.open(() => undefined, {
        window: providerFrames().window,
        visibility: visibility.page,
        activityTarget: activity.target,
        development: false,
      });
      tabs.push({ ...tab, visibility, input: activity.input });
    }
    await flush();
    const instances = () => b.tabs.flatMap((t) => t.instances);
    const userInfoCalls = () => instances().reduce((sum, kc) => sum + kc.userInfoCalls, 0);
    /** user-info requests and refresh grants (a check with an expired token is the refresh) */
    const providerRequests = () => userInfoCalls() + instances().reduce((sum, kc) => sum + kc.networkRefreshes, 0);
    return { tabs, userInfoCalls, providerRequests };
  }

  test("one user-info request per check across three tabs, every 15 s while a visitor uses one, every 4 minutes untouched; the snapshot still says 'frame'", async () => {
    const { tabs, userInfoCalls, providerRequests } = await frameTabs(3);

    await use(tabs[1]!, 15);
    expect(userInfoCalls()).toBe(1);
    await use(tabs[1]!, 30);
    expect(userInfoCalls()).toBe(3);
    await jest.advanceTimersByTimeAsync(225_000);
    expect(providerRequests()).toBe(3);
    await jest.advanceTimersByTimeAsync(15_000);
    expect(providerRequests()).toBe(4); // the 60 s token has expired by then: this check is the refresh
    for (const tab of tabs) expect(tab.session.getSnapshot().sessionWatch).toBe('frame');
  });

  test('a session ended at the provider (the frame saw nothing) signs every tab out as session-ended at the next check', async () => {
    const { tabs } = await frameTabs(2);
    for (const kc of tabs.flatMap((t) => t.instances)) kc.userInfoOutcome = 'ended';

    await use(tabs[0]!, 15);

    for (const tab of tabs) expect(tab.session.getSnapshot()).toMatchObject({ status: 'anonymous', signOutReason: 'session-ended' });
  });

  test('paused while every tab is hidden; runs at once when one becomes visible after a check fell due', async () => {
    const { tabs, providerRequests } = await frameTabs(2);
    for (const tab of tabs) tab.visibility.set(false);

    await jest.advanceTimersByTimeAsync(300_000);
    expect(providerRequests()).toBe(0);

    tabs[1]!.visibility.set(true); // a follower
    await flush();
    expect(providerRequests()).toBe(1);
  });
});
