import { testRealm } from '../../src/index.js';
import type { RealmRepresentation } from '../../src/index.js';

/** A small realm like the demo one, under a name of the test's choosing, with client `spa`. */
export function demoRealm(name: string, origin = 'http://localhost:3000'): RealmRepresentation {
  return testRealm(name, { clientId: 'spa', origin });
}
