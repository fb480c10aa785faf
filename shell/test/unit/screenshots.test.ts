/**
 * @jest-environment node
 */
// The README's screenshots (docs/screenshot-*.png) are made by `npm run screenshots` from the running system, which
// records in docs/screenshots.json the pictures it made and each source file that decides what they show
// (scripts/screenshotInputs.cjs, decisions/0115). Here the same list is made again: a changed header, slot, Profile
// page, stylesheet or screenshot script means the committed pictures no longer show the product.
import { INPUTS, inputDigests, MANIFEST, screenshotDigests, staleness } from '../../../scripts/screenshotInputs.cjs';

test('the committed screenshots were made from the sources as they are now', () => {
  const stale = staleness();
  if (stale.length > 0)
    throw new Error(
      `The screenshots in docs/ are older than what they show; run \`npm run screenshots\` (it rewrites ${MANIFEST}) and ` +
        `commit the pictures with it. Changed since they were made:\n  ${stale.join('\n  ')}`,
    );
});

test('the inputs are the files that draw the pictures: every folder of the list has some, the pictures are there', () => {
  const files = Object.keys(inputDigests());
  for (const { dir } of INPUTS) expect(files.some((file) => file.startsWith(`${dir}/`))).toBe(true);
  // the header, the failed slot's words, the Profile page and the shared stylesheet are among them; no test is
  expect(files).toEqual(
    expect.arrayContaining([
      'shell/src/layout/Header.tsx',
      'shell/src/slots/visitorMessages.ts',
      'remotes/profile/src/App.tsx',
      'tooling/federation/assets/gatehouse.css',
      'e2e/screenshot/shell.screenshot.ts',
    ]),
  );
  expect(files.filter((file) => /\.test\.tsx?$/.test(file))).toEqual([]);
  expect(Object.keys(screenshotDigests())).toEqual(
    expect.arrayContaining(['docs/screenshot-shell.png', 'docs/screenshot-profile-360.png', 'docs/screenshot-failed-slot-1280.png']),
  );
});
