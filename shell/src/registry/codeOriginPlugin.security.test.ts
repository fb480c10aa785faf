// Security round: an allowed manifest cannot point an override at code from another origin.
import { codeOriginPlugin } from './codeOriginPlugin';
import { FailureLog } from './FailureLog';
import { RemoteLoadError } from './RemoteLoadError';

type SnapshotHook = (args: object) => object;
const ALLOWED = ['http://localhost:*'];

function check(remoteSnapshot: object, allowed: readonly string[] | null = ALLOWED) {
  const failures = new FailureLog();
  const hook = codeOriginPlugin(failures, () => allowed).loadRemoteSnapshot as unknown as SnapshotHook;
  const args = { moduleInfo: { name: 'profile' }, remoteSnapshot };
  try {
    return { passed: hook(args) === args, cause: undefined };
  } catch (error) {
    const cause = failures.take('profile')?.error;
    expect((error as Error).message).toBe((cause as Error).message);
    return { passed: false, cause: cause as RemoteLoadError };
  }
}

const modules = [{ assets: { js: { sync: ['__federation_expose_App.js'], async: ['chunk.js'] }, css: { sync: [], async: [] } } }];

test('an overridden remote whose code is on an allowed origin loads', () => {
  expect(check({ publicPath: 'http://localhost:3095/', remoteEntry: 'remoteEntry.js', modules }).passed).toBe(true);
});

test('an overridden remote whose manifest names code on another origin is refused, naming that origin', () => {
  const { passed, cause } = check({ publicPath: 'http://127.0.0.1:3097/', remoteEntry: 'remoteEntry.js', modules });
  expect(passed).toBe(false);
  expect(cause).toBeInstanceOf(RemoteLoadError);
  expect(cause?.code).toBe('code-refused');
  expect(cause?.message).toMatch(
    /names code at http:\/\/127\.0\.0\.1:3097, which is not an allowed override origin \(allowed: http:\/\/localhost:\*\)/,
  );
});

test('a file name that turns an allowed publicPath into another host is refused', () => {
  // the runtime joins the two as strings: "http://localhost" + ".evil.example/remoteEntry.js"
  const { cause } = check({ publicPath: 'http://localhost', remoteEntry: '.evil.example/remoteEntry.js', modules: [] });
  expect(cause?.message).toMatch(/http:\/\/localhost\.evil\.example/);
});

test('a chunk of an exposed module on another origin is refused too', () => {
  const hostile = [{ assets: { js: { sync: [], async: ['//evil.example/chunk.js'] } } }];
  const { cause } = check({ publicPath: '', remoteEntry: 'http://localhost:3095/remoteEntry.js', modules: hostile });
  expect(cause?.message).toMatch(/http:\/\/evil\.example/);
});

test.each([ALLOWED, null])('a manifest that computes its code address with a function is refused (allowlist %p)', (allowed) => {
  const { cause } = check({ getPublicPath: 'function(){ return "http://localhost:3095/" }', remoteEntry: 'remoteEntry.js' }, allowed);
  expect(cause?.code).toBe('code-refused');
  expect(cause?.message).toMatch(/getPublicPath/);
});

test('a remote from the registry (no override) may load code from the origin its manifest names', () => {
  expect(check({ publicPath: 'https://cdn.example.com/profile/', remoteEntry: 'remoteEntry.js', modules }, null).passed).toBe(true);
});

// Security round three: the runtime builds `${publicPath}${file}` from any value, so anything but a string
// is refused, for overrides and registry remotes alike, before any code is requested.
test.each([
  ['an array', ['http://127.0.0.1:3999/']],
  ['an object', { toString: 'http://127.0.0.1:3999/' }],
  ['a number', 3999],
  ['null', null],
  ['a boolean', true],
])('a publicPath that is %s is refused, not skipped', (what, publicPath) => {
  for (const allowed of [ALLOWED, null]) {
    const { passed, cause } = check({ publicPath, remoteEntry: 'remoteEntry.js', modules }, allowed);
    expect(passed).toBe(false);
    expect(cause?.code).toBe('code-refused');
    expect(cause?.message).toBe(`The code of the remote "profile" was not loaded: its manifest's publicPath is ${what}, not a string URL.`);
  }
});

test.each([
  ['remote entry', { publicPath: 'http://localhost:3095/', remoteEntry: ['remoteEntry.js'], modules }],
  ['chunk', { publicPath: 'http://localhost:3095/', remoteEntry: 'remoteEntry.js', modules: [{ assets: { js: { sync: [{}] } } }] }],
])('a %s that is not a string is refused', (_, snapshot) => {
  const { cause } = check(snapshot);
  expect(cause?.code).toBe('code-refused');
  expect(cause?.message).toMatch(/names a code file that is an? (array|object), not a string/);
});

test('a manifest with neither publicPath nor getPublicPath is refused (the runtime would fail on it)', () => {
  const { cause } = check({ getPublicPath: undefined, remoteEntry: 'remoteEntry.js', modules });
  expect(cause?.message).toMatch(/names no publicPath/);
});
