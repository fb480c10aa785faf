import { loadKeycloak, preloadIdentityClient } from './keycloak';

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
