/**
 * The browser's DPoP key (RFC 9449): one ECDSA P-256 key pair per provider, realm and client, made non-extractable
 * (the private key can sign, never be read, exported or sent) and kept in IndexedDB, which stores a `CryptoKey` as it
 * is: every tab of the origin proves with the same key without the key ever leaving the browser's key store, so a token
 * one tab obtained works in the others (decisions/0110).
 */

const DATABASE = 'gatehouse-dpop';
const STORE = 'keys';

export const DPOP_KEY_ALGORITHM: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function openDatabase(idb: IDBFactory): Promise<IDBDatabase> {
  const open = idb.open(DATABASE, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  return request(open);
}

function isKeyPair(value: unknown): value is CryptoKeyPair {
  const pair = value as Partial<CryptoKeyPair> | undefined;
  return typeof pair === 'object' && pair !== null && pair.privateKey?.type === 'private' && pair.publicKey?.type === 'public';
}

export function generateDpopKeyPair(subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<CryptoKeyPair> {
  // extractable false: the private key stays in the browser's key store (the public key is always exportable)
  return subtle.generateKey(DPOP_KEY_ALGORITHM, false, ['sign', 'verify']);
}

/**
 * The key pair stored under `name`, made and stored the first time. Two tabs asking at once agree on one: a tab adds
 * its new pair only if none is there (`add`, not `put`) and otherwise reads the one the other tab stored.
 */
export async function storedDpopKeyPair(name: string, idb: IDBFactory, subtle?: SubtleCrypto): Promise<CryptoKeyPair> {
  const db = await openDatabase(idb);
  try {
    const found: unknown = await request(db.transaction(STORE, 'readonly').objectStore(STORE).get(name));
    if (isKeyPair(found)) return found;
    const made = await generateDpopKeyPair(subtle);
    try {
      await request(db.transaction(STORE, 'readwrite').objectStore(STORE).add(made, name));
      return made;
    } catch {
      const theirs: unknown = await request(db.transaction(STORE, 'readonly').objectStore(STORE).get(name));
      if (isKeyPair(theirs)) return theirs;
      throw new Error('IndexedDB kept no DPoP key');
    }
  } finally {
    db.close();
  }
}
