// Security round (decisions/0117): every script and stylesheet of a remote that pins signing keys carries the
// integrity its signed release gives it before it is inserted, whoever inserts it (the federation runtime, or a
// webpack remote's own chunk loader inside remoteEntry.js); a file the gate refuses is never inserted.
import { FailureLog } from './FailureLog';
import type { ReleaseGate } from './ReleaseGate';
import { installReleaseScriptGuard, releaseIntegrityPlugin } from './releaseScriptGuard';
import { RemoteLoadError } from './RemoteLoadError';

const PINNED = 'http://localhost:4001/';
const INTEGRITY = `sha384-${'A'.repeat(64)}`;

/** A gate whose release lists remoteEntry.js and one chunk under PINNED, and nothing else there. */
function stubGate() {
  const loadFailed = jest.fn();
  const gate = {
    integrityFor: (url: string) => {
      const target = new URL(url, 'http://localhost:4000/');
      if (!target.href.startsWith(PINNED)) return undefined;
      if (['remoteEntry.js', 'static/js/1.js', 'static/css/1.css'].includes(target.pathname.slice(1)))
        return { remote: 'profile', integrity: INTEGRITY };
      return { remote: 'profile', refusal: new RemoteLoadError('profile', 'release-unverified', `${target.href} is not listed`) };
    },
    keysOf: () => [{}],
    unsigned: () => false,
    outside: (name: string, url: string) => new RemoteLoadError(name, 'release-unverified', `${url} is outside`),
    loadFailed,
  } as unknown as ReleaseGate;
  return { gate, loadFailed };
}

let undo: () => void = () => undefined;
let failures: FailureLog;
let gate: ReleaseGate;
let loadFailed: jest.Mock;
beforeEach(() => {
  jest.useFakeTimers();
  failures = new FailureLog();
  ({ gate, loadFailed } = stubGate());
  undo = installReleaseScriptGuard(gate, failures);
});
afterEach(() => {
  undo();
  document.head.innerHTML = '';
  jest.useRealTimers();
});

function script(src: string): HTMLScriptElement {
  const element = document.createElement('script');
  element.src = src;
  return element;
}

test('a chunk a webpack loader appends gets its signed integrity and crossorigin before it is in the document', () => {
  const chunk = script(`${PINNED}static/js/1.js`);
  document.head.appendChild(chunk);
  expect(chunk.parentNode).toBe(document.head);
  expect(chunk.getAttribute('integrity')).toBe(INTEGRITY);
  expect(chunk.getAttribute('crossorigin')).toBe('anonymous');
});

test('a stylesheet inserted with insertBefore gets its integrity too', () => {
  const marker = document.head.appendChild(document.createElement('meta'));
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = `${PINNED}static/css/1.css`;
  document.head.insertBefore(link, marker);
  expect(link.getAttribute('integrity')).toBe(INTEGRITY);
  expect(link.crossOrigin).toBe('anonymous');
});

test('a script the release does not list is not inserted: its loader hears an error and the slot learns why', () => {
  const injected = script(`${PINNED}static/js/injected.js`);
  const onerror = jest.fn();
  injected.onerror = onerror;
  document.head.appendChild(injected);
  expect(injected.parentNode).toBeNull();
  expect(document.querySelector('script')).toBeNull();
  jest.runAllTimers();
  expect(onerror).toHaveBeenCalledTimes(1);
  expect(failures.take('profile')?.error).toMatchObject({ code: 'release-unverified' });
});

test('append and prepend are guarded as well', () => {
  document.head.append(script(`${PINNED}evil.js`), 'text');
  document.head.prepend(script(`${PINNED}evil2.js`));
  expect(document.querySelectorAll('script')).toHaveLength(0);
  document.head.append(script(`${PINNED}remoteEntry.js`));
  expect(document.querySelector('script')?.getAttribute('integrity')).toBe(INTEGRITY);
});

test("scripts and stylesheets under no pinned remote's folder, and other elements, pass untouched", () => {
  const other = script('http://localhost:4002/remoteEntry.js');
  document.head.appendChild(other);
  expect(other.parentNode).toBe(document.head);
  expect(other.hasAttribute('integrity')).toBe(false);
  const div = document.body.appendChild(document.createElement('div'));
  expect(div.parentNode).toBe(document.body);
  const inline = document.createElement('script');
  inline.textContent = '1';
  document.head.appendChild(inline);
  expect(inline.parentNode).toBe(document.head);
});

test('a file given its integrity that then fails to load is reported to the gate (it may be other bytes)', () => {
  const chunk = script(`${PINNED}static/js/1.js`);
  document.head.appendChild(chunk);
  chunk.dispatchEvent(new Event('error'));
  expect(loadFailed).toHaveBeenCalledWith('profile', `${PINNED}static/js/1.js`);
});

test('undo restores the DOM methods', () => {
  undo();
  undo = () => undefined;
  const injected = script(`${PINNED}static/js/injected.js`);
  document.head.appendChild(injected);
  expect(injected.parentNode).toBe(document.head);
});

describe("the runtime's hooks", () => {
  const plugin = () =>
    releaseIntegrityPlugin(gate, failures) as unknown as {
      createScript(args: { url: string; attrs?: Record<string, string> }): HTMLScriptElement | undefined;
      createLink(args: { url: string; attrs?: Record<string, string> }): HTMLLinkElement | undefined;
      loadRemoteSnapshot(args: object): object;
    };

  test('createScript makes remoteEntry.js with its integrity; a file of no pinned remote is left to the runtime', () => {
    const entry = plugin().createScript({ url: `${PINNED}remoteEntry.js`, attrs: { fetchpriority: 'high' } });
    expect(entry?.getAttribute('integrity')).toBe(INTEGRITY);
    expect(entry?.getAttribute('crossorigin')).toBe('anonymous');
    expect(entry?.getAttribute('fetchpriority')).toBe('high');
    expect(plugin().createScript({ url: 'http://localhost:4002/remoteEntry.js' })).toBeUndefined();
    expect(
      plugin()
        .createLink({ url: `${PINNED}static/css/1.css`, attrs: { rel: 'stylesheet' } })
        ?.getAttribute('integrity'),
    ).toBe(INTEGRITY);
  });

  test('a verified manifest naming code outside its folder is refused before any of it is requested', () => {
    const args = {
      moduleInfo: { name: 'profile' },
      remoteSnapshot: { publicPath: 'http://cdn.example/', remoteEntry: 'remoteEntry.js', modules: [] },
    };
    expect(() => plugin().loadRemoteSnapshot(args)).toThrow(/outside/);
    expect(failures.take('profile')?.error).toMatchObject({ code: 'release-unverified' });
    const inside = { moduleInfo: { name: 'profile' }, remoteSnapshot: { publicPath: PINNED, remoteEntry: 'remoteEntry.js', modules: [] } };
    expect(plugin().loadRemoteSnapshot(inside)).toBe(inside);
  });
});
