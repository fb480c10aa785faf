// Runs the dev identity provider in a child process (it is ESM TypeScript, loaded through tsx) and
// prints its URL as one JSON line; SIGTERM closes it.
import { startDevIdp } from '@gatehouse/dev-idp';

const realms = JSON.parse(process.env.GATEHOUSE_TEST_REALMS ?? '[]');
const idp = await startDevIdp({ port: 0, realms, quiet: true });
process.stdout.write(`${JSON.stringify({ url: idp.url })}\n`);
process.on('SIGTERM', () => {
  void idp.close().finally(() => process.exit(0));
});
