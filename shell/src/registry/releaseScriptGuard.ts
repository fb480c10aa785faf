import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { codeUrls } from './codeOriginPlugin';
import type { FailureLog } from './FailureLog';
import type { ReleaseGate } from './ReleaseGate';

/** The URL a script or stylesheet element would load, or undefined for any other node (or an inline script). */
function loadedUrl(node: unknown): string | undefined {
  if (typeof HTMLScriptElement !== 'undefined' && node instanceof HTMLScriptElement) return node.getAttribute('src') ?? undefined;
  if (typeof HTMLLinkElement !== 'undefined' && node instanceof HTMLLinkElement) {
    const rel = (node.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const loads =
      rel.includes('stylesheet') || rel.includes('modulepreload') || (rel.includes('preload') && /^(script|style)$/i.test(node.as));
    return loads ? (node.getAttribute('href') ?? undefined) : undefined;
  }
  return undefined;
}

/**
 * Readies an element for insertion under the gate: a file of a verified release gets its `integrity` and
 * `crossorigin="anonymous"` (the browser then refuses other bytes), one the gate refuses is answered with an `error`
 * event instead of being inserted (its loader fails as for a network error, the slot says why). True when the
 * element may be inserted.
 */
export function prepareElement(element: Element, gate: ReleaseGate, failures: FailureLog): boolean {
  const url = loadedUrl(element);
  if (url === undefined) return true;
  const decision = gate.integrityFor(url);
  if (!decision || 'unchecked' in decision) return true;
  if ('integrity' in decision) {
    element.setAttribute('integrity', decision.integrity);
    element.setAttribute('crossorigin', 'anonymous');
    // a failed load may be the browser refusing other bytes than the signed ones: the registry asks the gate
    element.addEventListener('error', () => gate.loadFailed(decision.remote, url), { once: true });
    return true;
  }
  failures.record(decision.remote, { lifecycle: 'onLoad', error: decision.refusal });
  // the loader (the runtime's, or webpack's inside remoteEntry.js) hears a failed load, as for a missing file
  setTimeout(() => element.dispatchEvent(new Event('error')), 0);
  return false;
}

/**
 * Guards where every loader inserts scripts and stylesheets: the runtime's own remoteEntry.js and preloads, and a
 * webpack or Rspack remote's chunk loader inside its remoteEntry.js, which appends `<script>` and `<link>` itself
 * (decisions/0117). `appendChild`, `insertBefore`, `append` and `prepend` of Node / Element see each such element
 * before the browser fetches it; elements under no pinned remote's folder pass untouched. Returns the undo.
 */
export function installReleaseScriptGuard(gate: ReleaseGate, failures: FailureLog): () => void {
  const node = Node.prototype;
  const element = Element.prototype;
  const appendChild = node.appendChild;
  const insertBefore = node.insertBefore;
  const append = element.append;
  const prepend = element.prepend;
  const allowed = (candidate: unknown) => !(candidate instanceof Element) || prepareElement(candidate, gate, failures);
  node.appendChild = function <T extends Node>(this: Node, child: T): T {
    return allowed(child) ? (appendChild.call(this, child) as T) : child;
  };
  node.insertBefore = function <T extends Node>(this: Node, child: T, before: Node | null): T {
    return allowed(child) ? (insertBefore.call(this, child, before) as T) : child;
  };
  element.append = function (this: Element, ...children: (Node | string)[]) {
    append.apply(this, children.filter(allowed));
  };
  element.prepend = function (this: Element, ...children: (Node | string)[]) {
    prepend.apply(this, children.filter(allowed));
  };
  return () => {
    node.appendChild = appendChild;
    node.insertBefore = insertBefore;
    element.append = append;
    element.prepend = prepend;
  };
}

/**
 * The runtime's side of the same check: the elements it creates for a remote entry or a preload
 * (`loaderHook.createScript` / `createLink`) carry their integrity from the start; the DOM guard refuses them
 * when the gate does.
 */
export function releaseIntegrityPlugin(gate: ReleaseGate, failures: FailureLog): ModuleFederationRuntimePlugin {
  // the order of the runtime's hooks: loadRemoteSnapshot (after the manifest is admitted), then createScript
  const create = (tag: 'script' | 'link', url: string, attrs: Record<string, unknown> = {}) => {
    const decision = gate.integrityFor(url);
    // a refused file is left to the DOM guard, which answers its insertion with an error event
    if (!decision || !('integrity' in decision)) return undefined;
    const created = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) if (typeof value === 'string') created.setAttribute(name, value);
    created.setAttribute(tag === 'script' ? 'src' : 'href', url);
    created.setAttribute('integrity', decision.integrity);
    created.setAttribute('crossorigin', 'anonymous');
    return created;
  };
  return {
    name: 'gatehouse-release-integrity',
    // a verified manifest that names code outside its own folder: no signed hash could cover that code
    loadRemoteSnapshot(args: { moduleInfo?: { name?: string }; remoteSnapshot?: Parameters<typeof codeUrls>[0] }) {
      const remote = args.moduleInfo?.name;
      if (!remote || !gate.keysOf(remote) || gate.unsigned(remote)) return args;
      let urls: URL[];
      try {
        urls = codeUrls(args.remoteSnapshot ?? {}, globalThis.document?.baseURI ?? globalThis.location.href);
      } catch {
        return args; // codeOriginPlugin refuses such a manifest, saying why
      }
      for (const url of urls) {
        const decision = gate.integrityFor(url.href);
        const refusal = !decision ? gate.outside(remote, url.href) : 'refusal' in decision ? decision.refusal : undefined;
        if (refusal) {
          failures.record(remote, { lifecycle: 'afterResolve', error: refusal });
          throw new Error(refusal.message);
        }
      }
      return args;
    },
    createScript({ url, attrs }: { url: string; attrs?: Record<string, unknown> }) {
      return create('script', url, attrs);
    },
    createLink({ url, attrs }: { url: string; attrs?: Record<string, unknown> }) {
      return create('link', url, attrs);
    },
  } as unknown as ModuleFederationRuntimePlugin;
}
