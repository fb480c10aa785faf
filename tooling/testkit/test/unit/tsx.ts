// The fixtures are TypeScript, as testkit's sources they load: a test starts them with Node and tsx's loader (the
// loader the repository's scripts use; Node 20 cannot run TypeScript itself).
import { pathToFileURL } from 'node:url';

/** Node's arguments that load tsx, for `spawn(process.execPath, [...WITH_TSX, fixture])`. */
export const WITH_TSX = ['--import', pathToFileURL(require.resolve('tsx')).href];
