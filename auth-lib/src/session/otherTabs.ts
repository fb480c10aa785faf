/**
 * Tells the page's other tabs (same origin, same realm and client) that the visitor signed out, so
 * they drop their tokens at once instead of at their next login-status frame check. Messages carry
 * no token, only what happened.
 */

/** The part of `BroadcastChannel` used here; injected because jsdom and some browsers lack it. */
export interface TabChannel {
  postMessage(message: unknown): void;
  onMessage(listener: (data: unknown) => void): void;
  close(): void;
}

export type TabChannelFactory = (name: string) => TabChannel;

const SIGNED_OUT_MESSAGE = 'gatehouse-auth:signed-out';

export function channelName(realm: string, clientId: string): string {
  return `gatehouse-auth:${realm}:${clientId}`;
}

/** `BroadcastChannel` when the runtime has it, else null (other tabs then learn at their next frame check). */
export const defaultTabChannel: TabChannelFactory | null =
  typeof BroadcastChannel === 'function'
    ? (name) => {
        const channel = new BroadcastChannel(name);
        return {
          postMessage: (message) => channel.postMessage(message),
          onMessage: (listener) => {
            channel.onmessage = (event: MessageEvent<unknown>) => listener(event.data);
          },
          close: () => channel.close(),
        };
      }
    : null;

export class OtherTabs {
  private readonly channel: TabChannel;

  constructor(factory: TabChannelFactory, realm: string, clientId: string, onSignedOutElsewhere: () => void) {
    this.channel = factory(channelName(realm, clientId));
    this.channel.onMessage((data) => {
      if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === SIGNED_OUT_MESSAGE) {
        onSignedOutElsewhere();
      }
    });
  }

  announceSignOut(): void {
    this.channel.postMessage({ type: SIGNED_OUT_MESSAGE });
  }

  close(): void {
    this.channel.close();
  }
}
