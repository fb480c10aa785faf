import { invocationDir } from './runBin';

test('relative paths mean the folder the command was typed in only under its own npm script', () => {
  const typedIn = { npm_lifecycle_event: 'doctor', INIT_CWD: '/home/me/remote' };
  expect(invocationDir('doctor', typedIn, '/repo')).toBe('/home/me/remote');
  // INIT_CWD inherited by something another script started (a test that runs the bin elsewhere)
  expect(invocationDir('doctor', { npm_lifecycle_event: 'test', INIT_CWD: '/home/me' }, '/tmp/elsewhere')).toBe('/tmp/elsewhere');
  expect(invocationDir('new-remote', {}, '/repo')).toBe('/repo');
});
