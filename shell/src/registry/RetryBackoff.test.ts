import { RETRY_BACKOFF, RetryBackoff } from './RetryBackoff';

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

const clock = {
  now: () => Date.now(),
  setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
  clearTimeout: (t: unknown) => clearTimeout(t as number),
};

describe('RetryBackoff', () => {
  it('lets a remote that never failed be tried at once', () => {
    const backoff = new RetryBackoff(clock);
    const attempt = jest.fn();
    backoff.ask('reports', attempt, () => false);
    expect(backoff.wait('reports')).toBe(0);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('waits 1 s after a failure, doubling with each failure up to 30 s, and starts over after a success', () => {
    const backoff = new RetryBackoff(clock);
    const waits: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      backoff.failed('reports');
      waits.push(backoff.wait('reports'));
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(RETRY_BACKOFF).toEqual({ firstMs: 1_000, maxMs: 30_000 });
    backoff.succeeded('reports');
    backoff.failed('reports');
    expect(backoff.wait('reports')).toBe(1_000);
  });

  it('folds every ask during the wait into one attempt when it ends: a remote that stays down is not stormed', () => {
    const backoff = new RetryBackoff(clock);
    backoff.failed('reports');
    const attempt = jest.fn();
    for (let i = 0; i < 20; i += 1) backoff.ask('reports', attempt, () => false);
    expect(attempt).not.toHaveBeenCalled();
    jest.advanceTimersByTime(999);
    expect(attempt).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(attempt).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(60_000);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('does not start an attempt while one is in flight', () => {
    const backoff = new RetryBackoff(clock);
    const attempt = jest.fn();
    backoff.ask('reports', attempt, () => true);
    backoff.failed('reports');
    backoff.ask('reports', attempt, () => true);
    jest.advanceTimersByTime(1_000);
    expect(attempt).not.toHaveBeenCalled();
  });

  it('drops a waiting ask when cancelled, and keeps remotes apart', () => {
    const backoff = new RetryBackoff(clock);
    backoff.failed('reports');
    backoff.failed('profile');
    const reports = jest.fn();
    const profile = jest.fn();
    backoff.ask('reports', reports, () => false);
    backoff.ask('profile', profile, () => false);
    backoff.cancel('reports');
    jest.advanceTimersByTime(1_000);
    expect(reports).not.toHaveBeenCalled();
    expect(profile).toHaveBeenCalledTimes(1);
  });
});
