import type { ServerResponse } from 'node:http';

export interface JsonResponse {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Lets us adapt what oidc-provider (Koa) answers before it leaves: the JSON body it hands to
 * `res.end` goes through `rewrite`, which may return a different status and body. Koa sets
 * headers with setHeader and sends with one `res.end(body)`, so nothing has been sent yet.
 */
export function interceptJson(res: ServerResponse, rewrite: (response: JsonResponse) => Promise<JsonResponse>): void {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return end(chunk);
    }
    rewrite({ status: res.statusCode, body: parsed })
      .catch((error: unknown) => ({ status: 500, body: { error: 'server_error', error_description: String(error) } }))
      .then(({ status, body }) => {
        const out = JSON.stringify(body);
        res.statusCode = status;
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('Content-Length', Buffer.byteLength(out));
        end(out);
      });
    return res;
  }) as ServerResponse['end'];
}
