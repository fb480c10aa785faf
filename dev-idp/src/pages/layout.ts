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

/** The frame every dev IdP page shares: realm name, a heading, the page's content. */
export function layout(realm: Pick<Realm, 'name' | 'displayName'>, title: string, content: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(realm.displayName ?? realm.name)}</title>
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
