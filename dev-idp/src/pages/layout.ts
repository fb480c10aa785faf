import type { Realm } from '../realm/model.js';
import { escapeHtml } from './html.js';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#eef1f5;color:#1d2433}
main{width:min(24rem,calc(100vw - 2rem));background:#fff;border-radius:12px;box-shadow:0 8px 28px rgba(20,30,60,.12);padding:2rem}
header{margin-bottom:1.25rem}header p{margin:0;color:#5b6578;font-size:.85rem;letter-spacing:.04em;text-transform:uppercase}
h1{font-size:1.4rem;margin:.25rem 0 0}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
input[type=text],input[type=password]{width:100%;padding:.6rem .7rem;border:1px solid #b7bfcc;border-radius:6px;font:inherit}
input:focus,button:focus{outline:3px solid #7aa7ff;outline-offset:1px}
button,input[type=submit]{margin-top:1.5rem;width:100%;padding:.65rem;border:0;border-radius:6px;background:#2456c9;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover,input[type=submit]:hover{background:#1b45a6}
.alert{margin:0 0 1rem;padding:.6rem .8rem;border-radius:6px;background:#fdecec;color:#8a1f1f;border:1px solid #f3b9b9}
.note{color:#5b6578;font-size:.85rem;margin-top:1.5rem}
`;

/**
 * The provider's icon, inline: its pages are served from many paths and need no file of their own. Without one
 * (or with an empty `data:,`) the browser asks for `/favicon.ico`, a 404 in the console of every page.
 */
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2456c9"/><circle cx="16" cy="13" r="5" fill="#fff"/><path d="M8 27c1-5 4-7 8-7s7 2 8 7z" fill="#fff"/></svg>',
)}`;

/** The frame every dev IdP page shares: realm name, a heading, the page's content. */
export function layout(realm: Pick<Realm, 'name' | 'displayName'>, title: string, content: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(realm.displayName ?? realm.name)}</title>
<link rel="icon" href="${ICON}">
<style>${STYLE}</style>
</head>
<body>
<main>
<header><p>${escapeHtml(realm.displayName ?? realm.name)}</p><h1 id="kc-page-title">${escapeHtml(title)}</h1></header>
${content}
<p class="note">Gatehouse dev identity provider — for development only.</p>
</main>
</body>
</html>`;
}
