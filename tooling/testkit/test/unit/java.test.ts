import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findJava, JavaNotFoundError } from '../../src/java';

// Real folders shaped like Java homes: bin/java (a script that answers `-version` as a JDK does) and, for some,
// the `release` file a JDK ships with.
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'testkit-java-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function fakeJava(home: string, version: string, { releaseFile = true } = {}): string {
  mkdirSync(join(home, 'bin'), { recursive: true });
  writeFileSync(join(home, 'bin/java'), `#!/bin/sh\necho 'openjdk version "${version}" 2026-01-01' >&2\n`);
  chmodSync(join(home, 'bin/java'), 0o755);
  if (releaseFile) writeFileSync(join(home, 'release'), `IMPLEMENTOR="test"\nJAVA_VERSION="${version}"\n`);
  return home;
}

test('JAVA_HOME wins when it is recent enough', () => {
  const home = fakeJava(join(root, 'custom-21'), '21.0.4');
  fakeJava(join(root, 'jvm/temurin-25'), '25.0.3');
  expect(findJava({ env: { JAVA_HOME: home, PATH: '' }, jvmFolders: [join(root, 'jvm')] })).toEqual({
    home,
    major: 21,
    source: 'JAVA_HOME',
  });
});

test('a JAVA_HOME and a java on PATH older than 21 are passed over for a JDK under the JVM folder', () => {
  const old = fakeJava(join(root, 'java-17'), '17.0.15');
  fakeJava(join(root, 'jvm/java-17-openjdk'), '17.0.15');
  const recent = fakeJava(join(root, 'jvm/temurin-25'), '25.0.3');
  const found = findJava({ env: { JAVA_HOME: old, PATH: join(old, 'bin') }, jvmFolders: [join(root, 'jvm')] });
  expect(found).toEqual({ home: recent, major: 25, source: join(root, 'jvm') });
});

test('without a release file the version comes from `java -version`', () => {
  fakeJava(join(root, 'jvm/jdk'), '22.0.1', { releaseFile: false });
  expect(findJava({ env: { PATH: '' }, jvmFolders: [join(root, 'jvm')] }).major).toBe(22);
});

test('no Java 21+ anywhere: one error that lists what was found and says what to install', () => {
  const old = fakeJava(join(root, 'java-17'), '17.0.15');
  let error: unknown;
  try {
    findJava({ env: { JAVA_HOME: old, PATH: '' }, jvmFolders: [join(root, 'empty')] });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(JavaNotFoundError);
  expect(error).toMatchObject({ code: 'JAVA_TOO_OLD_OR_MISSING' });
  expect((error as Error).message).toContain('Keycloak 26 needs Java 21 or newer.');
  expect((error as Error).message).toContain(`Found only: JAVA_HOME: ${old} (Java 17).`);
  expect((error as Error).message).toMatch(/Install .*21.*, or set JAVA_HOME to a Java 21\+ home\.$/);
});

test('nothing at all: the error says no Java was found', () => {
  expect(() => findJava({ env: { PATH: '' }, jvmFolders: [] })).toThrow(/No Java found \(JAVA_HOME unset, no java on PATH/);
});
