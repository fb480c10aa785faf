import type { Adapter, AdapterPayload } from 'oidc-provider';

import type { MemoryStore, Payload } from './MemoryStore.js';

/**
 * oidc-provider's adapter for one realm: every model lives in the realm's {@link MemoryStore},
 * except `Client`, which is read from the realm itself, so clients created or changed through
 * the admin API are seen at once. A `Session` whose SSO session has ended (`sessionEnded(uid)`:
 * its idle timeout or lifespan passed, even if the periodic sweep has not run yet) is not found, so
 * an authorization request never reuses it: it asks for the password, as Keycloak does, instead of
 * issuing a code whose session ends before the code is exchanged.
 */
export function createAdapterClass(
  store: MemoryStore,
  findClient: (clientId: string) => AdapterPayload | undefined,
  onGrantRevoked: (grantId: string) => void = () => {},
  sessionEnded: (uid: string) => boolean = () => false,
) {
  return class RealmAdapter implements Adapter {
    readonly #model: string;

    constructor(model: string) {
      this.#model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      store.set(this.#model, id, payload as Payload, expiresIn);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.#model === 'Client') return findClient(id);
      const payload = store.get(this.#model, id);
      if (this.#model === 'Session' && typeof payload?.uid === 'string' && sessionEnded(payload.uid)) return undefined;
      return payload as AdapterPayload | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = store.find(this.#model, (p) => p.uid === uid);
      return id === undefined ? undefined : (store.get(this.#model, id) as AdapterPayload);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = store.find(this.#model, (p) => p.userCode === userCode);
      return id === undefined ? undefined : (store.get(this.#model, id) as AdapterPayload);
    }

    async consume(id: string): Promise<void> {
      const payload = store.get(this.#model, id);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.delete(this.#model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      store.deleteWhere((p) => p.grantId === grantId);
      onGrantRevoked(grantId);
    }
  };
}
