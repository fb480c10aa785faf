import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { BruteForceProtector, BruteForceSettingError } from '../src/sessions/bruteForce.js';

// The clock is passed in (ms), so lockouts are checked without waiting.
describe('security: brute-force detection, Keycloak strategy MULTIPLE', () => {
  test('off by default: failures lock nobody out', () => {
    const protector = new BruteForceProtector();
    for (let t = 0; t < 100; t++) protector.failure('u', t * 5000);
    assert.equal(protector.lockedOut('u', 500_000), false);
  });

  test('each failureFactor-th failure locks for waitIncrementSeconds times the lockouts, capped', () => {
    const protector = new BruteForceProtector();
    protector.configure({ bruteForceProtected: true, failureFactor: 3, waitIncrementSeconds: 60, maxFailureWaitSeconds: 100 });
    const at = (s: number) => s * 1000;
    protector.failure('u', at(0));
    protector.failure('u', at(10));
    assert.equal(protector.lockedOut('u', at(11)), false, 'two failures, factor 3');
    protector.failure('u', at(20));
    assert.equal(protector.lockedOut('u', at(79)), true, 'third failure: 60 s');
    assert.equal(protector.lockedOut('u', at(81)), false);
    for (const s of [90, 100, 110]) protector.failure('u', at(s));
    assert.equal(protector.lockedOut('u', at(209)), true, 'sixth failure: 120 s, capped at 100');
    assert.equal(protector.lockedOut('u', at(211)), false);
    assert.equal(protector.lockedOut('other', at(100)), false, 'per user');
  });

  test('two failures within quickLoginCheckMilliSeconds lock for minimumQuickLoginWaitSeconds', () => {
    const protector = new BruteForceProtector();
    protector.configure({ bruteForceProtected: true });
    protector.failure('u', 1000);
    protector.failure('u', 1500);
    assert.equal(protector.lockedOut('u', 61_000), true);
    assert.equal(protector.lockedOut('u', 61_600), false);
  });

  test('a success clears the count; permanentLockout disables at failureFactor', () => {
    const protector = new BruteForceProtector();
    protector.configure({ bruteForceProtected: true, failureFactor: 2, quickLoginCheckMilliSeconds: 0 });
    protector.failure('u', 0);
    protector.success('u');
    assert.equal(protector.failure('u', 10_000), undefined);
    assert.equal(protector.lockedOut('u', 10_001), false, 'the count restarted after the success');
    protector.configure({ permanentLockout: true });
    assert.equal(protector.failure('p', 0), undefined);
    assert.equal(protector.failure('p', 5000), 'disable');
  });

  test('a wrong setting names the field and changes nothing', () => {
    const protector = new BruteForceProtector();
    assert.throws(() => protector.configure({ bruteForceProtected: true, failureFactor: 'ten' }), BruteForceSettingError);
    assert.throws(() => protector.configure({ bruteForceProtected: 'yes' }), /bruteForceProtected: expected true or false/);
    assert.equal(protector.settings.bruteForceProtected, false);
  });
});
