/**
 * `@gatehouse/auth-lib/testing`: what a remote's unit tests need to render components against a
 * session without an identity provider.
 */
export { createTestSession } from './createTestSession';
export type { TestSession, TestSessionCalls, TestSessionOptions } from './createTestSession';
export { setPageSession } from './pageSession';
