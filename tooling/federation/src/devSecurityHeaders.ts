/**
 * What every Gatehouse dev server sends besides CORS, the same as production's nginx (deploy/nginx/render.mjs
 * `securityHeaders`; a test keeps the two equal). The CSP here is the floor for any app's own page — no framing
 * by other sites, no `<base>` to another origin, no plugins; the shell passes its full production CSP
 * (`pageHeaders`), derived from its config.json as nginx's is.
 */
export const DEV_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'self'; base-uri 'self'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};
