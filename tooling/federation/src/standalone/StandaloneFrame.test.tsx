/**
 * @jest-environment jsdom
 */
import { AuthError, AuthProvider } from '@gatehouse/auth-lib';
import { createTestSession, type TestSession } from '@gatehouse/auth-lib/testing';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { StandaloneFrame } from './StandaloneFrame';

function renderFrame(session: TestSession) {
  render(
    <AuthProvider session={session}>
      <MemoryRouter>
        <StandaloneFrame title="Billing">
          <p>the remote</p>
        </StandaloneFrame>
      </MemoryRouter>
    </AuthProvider>,
  );
}

test('a refused origin: plain words for the visitor, the origin and client to fix in Details', () => {
  const session = createTestSession({ status: 'error' });
  const developerText = 'The identity provider at http://localhost:8080 does not accept this origin: add http://localhost:3004 to …';
  act(() => session.setState({ error: new AuthError('origin-not-allowed', developerText) }));
  renderFrame(session);
  expect(screen.getByRole('heading', { name: 'Sign-in unavailable' })).toBeTruthy();
  expect(screen.getByText(/^Sign-in is not set up for this app's address yet/)).toBeTruthy();
  expect(screen.queryByText(/not answering right now/)).toBeNull();
  expect(screen.getByText('origin-not-allowed')).toBeTruthy();
  expect(screen.getByText(developerText)).toBeTruthy();
});

test('an unreachable provider still says so', () => {
  const session = createTestSession({ status: 'error' });
  act(() => session.setState({ error: new AuthError('idp-unreachable', 'Could not reach the identity provider at …') }));
  renderFrame(session);
  expect(screen.getByText(/^The sign-in service is not answering right now/)).toBeTruthy();
});
