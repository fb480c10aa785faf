import { keycloakConfig, loadKeycloak } from './keycloak';
import { preloadIdentityClient } from './preload';

// keycloak-js stands in as a module whose evaluation is counted: each evaluation is one download.
let mockImports = 0;
jest.mock('keycloak-js', () => {
  mockImports += 1;
  class MockKeycloak {
    constructor(readonly settings: unknown) {}
  }
  return { __esModule: true, default: MockKeycloak };
});

const settings = { url: 'https://idp.example.com', realm: 'gatehouse', clientId: 'gatehouse-shell' };

test('preloadIdentityClient starts the download before any session, and the session uses that download', async () => {
  expect(mockImports).toBe(0);

  preloadIdentityClient();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(mockImports).toBe(1);

  const keycloak = await loadKeycloak(settings);
  expect(keycloak).toMatchObject({ settings });
  preloadIdentityClient();
  await loadKeycloak(settings);
  expect(mockImports).toBe(1);
});

describe('keycloakConfig', () => {
  const local = { url: 'http://localhost:8080', realm: 'gatehouse', clientId: 'gatehouse-shell' };

  test("a provider on another host: Keycloak's form, whose third-party-cookie check decides about the frame", () => {
    expect(keycloakConfig(settings, 'https://app.example.com')).toEqual(settings);
    expect(keycloakConfig(settings, 'https://example.com')).toEqual(settings);
    expect(keycloakConfig(local, 'http://127.0.0.1:3000')).toEqual(local);
    // another scheme is another site
    expect(keycloakConfig(settings, 'http://idp.example.com')).toEqual(settings);
    expect(keycloakConfig(settings, undefined)).toEqual(settings);
  });

  test("a provider on the page's host (any port): the same endpoints in the generic-OIDC form, with no third-party-cookie check", () => {
    const oidc = 'http://localhost:8080/realms/gatehouse/protocol/openid-connect';
    const expected = {
      clientId: 'gatehouse-shell',
      oidcProvider: {
        authorization_endpoint: `${oidc}/auth`,
        token_endpoint: `${oidc}/token`,
        userinfo_endpoint: `${oidc}/userinfo`,
        check_session_iframe: `${oidc}/login-status-iframe.html`,
        end_session_endpoint: `${oidc}/logout`,
      },
    };
    expect(keycloakConfig(local, 'http://localhost:3000')).toEqual(expected);
    expect(keycloakConfig({ ...local, url: 'http://localhost:8080/' }, 'http://localhost:8080')).toEqual(expected);
    expect(keycloakConfig({ ...settings, url: 'https://app.example.com/auth' }, 'https://app.example.com')).toMatchObject({
      oidcProvider: { token_endpoint: 'https://app.example.com/auth/realms/gatehouse/protocol/openid-connect/token' },
    });
  });
});

test('on the page host, the instance still knows the realm URL the account endpoint is built from', async () => {
  const kc = (await loadKeycloak({ ...settings, url: 'http://localhost:8080' })) as unknown as Record<string, unknown>;
  expect(kc).toMatchObject({ authServerUrl: 'http://localhost:8080', realm: 'gatehouse', settings: { clientId: 'gatehouse-shell' } });
});
