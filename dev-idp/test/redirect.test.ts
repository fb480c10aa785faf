import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { toClient } from '../src/realm/buildRealm.js';
import { originAllowed, postLogoutRedirectUris, redirectUriMatches, webOrigins } from '../src/sessions/redirect.js';

describe('redirect URI matching (Keycloak rules)', () => {
  const wildcard = ['http://localhost:3000/*'];

  test('a trailing /* allows any path, query and fragment below it, and the bare origin', () => {
    assert.ok(redirectUriMatches('http://localhost:3000/', wildcard));
    assert.ok(redirectUriMatches('http://localhost:3000/profile?x=1#y', wildcard));
    assert.ok(redirectUriMatches('http://localhost:3000', wildcard));
  });

  test('no prefix tricks', () => {
    assert.equal(redirectUriMatches('http://localhost:3000.evil.com/', wildcard), false);
    assert.equal(redirectUriMatches('http://localhost:30001/', wildcard), false);
    assert.equal(redirectUriMatches('http://localhost:3000@evil.com/', wildcard), false);
    assert.equal(redirectUriMatches('https://localhost:3000/', wildcard), false);
    assert.equal(redirectUriMatches('not a url', wildcard), false);
  });

  test('without a wildcard the match is exact', () => {
    const exact = ['http://localhost:3000/callback'];
    assert.ok(redirectUriMatches('http://localhost:3000/callback', exact));
    assert.equal(redirectUriMatches('http://localhost:3000/callback/', exact), false);
    assert.equal(redirectUriMatches('http://localhost:3000/callback?x=1', exact), false);
  });

  test('web origins: "+" means the redirect URIs\' origins', () => {
    const client = toClient({
      clientId: 'c',
      redirectUris: ['http://localhost:3000/*', 'http://localhost:3001/app'],
      webOrigins: ['+', 'http://extra.test/'],
    });
    assert.deepEqual(webOrigins(client), ['http://localhost:3000', 'http://localhost:3001', 'http://extra.test']);
    assert.ok(originAllowed(client, 'http://localhost:3001'));
    assert.equal(originAllowed(client, 'http://localhost:3002'), false);
  });

  test('post-logout redirect URIs: absent or "+" means the redirect URIs, "-" none, values split on ##', () => {
    const plus = toClient({ clientId: 'c', redirectUris: ['http://a.test/*'], attributes: { 'post.logout.redirect.uris': '+' } });
    assert.deepEqual(postLogoutRedirectUris(plus), ['http://a.test/*']);
    const listed = toClient({ clientId: 'c', attributes: { 'post.logout.redirect.uris': 'http://a.test/bye##http://b.test/*' } });
    assert.deepEqual(postLogoutRedirectUris(listed), ['http://a.test/bye', 'http://b.test/*']);
    // As the admin API creates clients: no attribute at all.
    assert.deepEqual(postLogoutRedirectUris(toClient({ clientId: 'c', redirectUris: ['http://a.test/*'] })), ['http://a.test/*']);
    const none = toClient({ clientId: 'c', redirectUris: ['http://a.test/*'], attributes: { 'post.logout.redirect.uris': '-' } });
    assert.deepEqual(postLogoutRedirectUris(none), []);
  });
});
