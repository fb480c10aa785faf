/**
 * The channel between the tabs of one origin that run a session for the same realm and client.
 * BroadcastChannel is same-origin, in-memory messaging: tokens sent over it never reach web storage.
 */

/** The part of `BroadcastChannel` used here; injected because jsdom and some browsers lack it. */
export interface TabChannel {
  postMessage(message: unknown): void;
  onMessage(listener: (data: unknown) => void): void;
  close(): void;
}

export type TabChannelFactory = (name: string) => TabChannel;

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
