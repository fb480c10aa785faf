import { runDoctorCli } from './doctorCli';
import { OTHER_SITE_IDP, SHELL_HOST, startDeployment, type Deployment, type Variation } from '../../test/deployment';

// The deploy doctor against real deployments: nginx with deploy/nginx's rendered configuration, TLS from a
// throwaway CA, the dev IdP behind it. The good one first, then each broken one changes one thing.

jest.setTimeout(60_000);

async function doctor(variation: Variation = {}) {
  let deployment: Deployment | undefined;
  try {
    deployment = await startDeployment(variation);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runDoctorCli([deployment.shellUrl, ...deployment.doctorArgs], {
      cwd: process.cwd(),
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    });
    return { code, out: out.join('\n'), err: err.join('\n'), shellUrl: deployment.shellUrl };
  } finally {
    await deployment?.stop();
  }
}

/** The codes of the problems the report names, in order. */
const codes = (report: string) => [...report.matchAll(/^✗ (DOCTOR-[A-Z-]+)/gm)].map((m) => m[1]);

test("a good deployment: https, provider on the shell's site, CSP, CORS and caching as deploy/nginx renders them", async () => {
  const result = await doctor();
  expect(result.err).toBe('');
  expect(result.code).toBe(0);
  expect(result.out).toMatch(/✓ No problem found \(\d+ checks passed\)/);
  for (const line of [
    'The identity provider https://sso.gatehouse.test',
    'accepts the web origin https://shell.gatehouse.test',
    'accepts the redirect URI https://shell.gatehouse.test',
    'allows https://shell.gatehouse.test',
    'CSP script-src allows https://profile.gatehouse.test',
    '__federation_expose_App.89abcdef.js is served as immutable',
  ])
    expect(result.out).toContain(line);
});

test('the provider on another site: what breaks and the two fixes', async () => {
  const result = await doctor({ idpHost: OTHER_SITE_IDP });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toEqual(['DOCTOR-PROVIDER-SITE']);
  expect(result.err).toContain('block third-party cookies');
  expect(result.err).toContain("proxy it under the shell's origin");
});

test("the shell's origin missing from the client's web origins and redirect URIs", async () => {
  const result = await doctor({ clientOrigin: 'https://elsewhere.gatehouse.test' });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toEqual(['DOCTOR-WEB-ORIGIN', 'DOCTOR-REDIRECT-URI']);
  expect(result.err).toContain(`Add https://${SHELL_HOST}`);
});

test('a provider whose --hostname is not the address config.json reaches it at', async () => {
  const result = await doctor({ idpHostname: 'https://sso.gatehouse.test' });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toEqual(['DOCTOR-ISSUER']);
  expect(result.err).toMatch(
    /calls itself https:\/\/sso\.gatehouse\.test\/realms\/gatehouse, but config\.json reaches it at https:\/\/sso\.gatehouse\.test:\d+/,
  );
});

test('a CSP that does not cover the remote', async () => {
  const result = await doctor({ renderWithoutRemote: true });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toEqual(['DOCTOR-CSP', 'DOCTOR-CSP']);
  expect(result.err).toMatch(/connect-src does not allow https:\/\/profile\.gatehouse\.test:\d+/);
  expect(result.err).toMatch(/script-src does not allow https:\/\/profile\.gatehouse\.test:\d+/);
});

test('a remote whose CORS does not allow the shell', async () => {
  const result = await doctor({ renderedShellOrigin: 'https://old-shell.gatehouse.test' });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toEqual(['DOCTOR-CORS']);
  expect(result.err).toContain('Access-Control-Allow-Origin: none');
});

test('the shell on plain http', async () => {
  const result = await doctor({ shellOverHttp: true });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toContain('DOCTOR-HTTP');
  expect(result.err).toMatch(/The shell is served over plain http \(http:\/\/shell\.gatehouse\.test:\d+\)/);
});

test('the identity provider on plain http', async () => {
  const result = await doctor({ idpOverHttp: true });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toContain('DOCTOR-HTTP');
  expect(result.err).toMatch(/reaches the identity provider at http:\/\/sso\.gatehouse\.test:\d+, plain http/);
});

test('a remote on plain http', async () => {
  const result = await doctor({ remoteOverHttp: true });
  expect(result.code).toBe(1);
  expect(codes(result.err)).toContain('DOCTOR-HTTP');
  expect(result.err).toMatch(/manifest is at http:\/\/profile\.gatehouse\.test:\d+\/mf-manifest\.json, plain http/);
});

test('config.json and manifests that may be cached, hashed files that are not immutable', async () => {
  const result = await doctor({
    editHttpConf: (conf) =>
      conf
        .replace('/config.json            "no-cache"', '/config.json            "public, max-age=3600"')
        .replace('/mf-manifest.json       "no-cache"', '/mf-manifest.json       "public, max-age=3600"')
        .replace('"public, max-age=31536000, immutable"', '"public, max-age=600"'),
  });
  expect(result.code).toBe(1);
  expect(codes(result.err).sort()).toEqual(['DOCTOR-CACHEABLE', 'DOCTOR-CACHEABLE', 'DOCTOR-NOT-IMMUTABLE', 'DOCTOR-NOT-IMMUTABLE']);
  expect(result.err).toContain('config.json (https://shell.gatehouse.test');
});
