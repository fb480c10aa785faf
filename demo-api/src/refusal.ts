/**
 * Why a request's token is not accepted, in words a developer reads in the 401's body and `WWW-Authenticate`.
 * `error` is the challenge's error code: `invalid_token` for the token, `invalid_dpop_proof` for its DPoP proof
 * (RFC 9449 7.1).
 */
export class Refusal extends Error {
  constructor(
    readonly reason: string,
    /** 401: the token (or its proof) is the problem; 503: the API could not check it (the provider's keys, the replay store) */
    readonly status: 401 | 503 = 401,
    readonly error: 'invalid_token' | 'invalid_dpop_proof' = 'invalid_token',
    /** the answer's challenge must be `DPoP` even where bearer tokens are taken: the refusal is about a DPoP binding */
    readonly dpop: boolean = error === 'invalid_dpop_proof',
  ) {
    super(reason);
    this.name = 'Refusal';
  }
}
