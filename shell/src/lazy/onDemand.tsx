import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code the first paint does not need (issue 33): `React.lazy` over a named export, so the
 * module stays a plain one (its tests import it directly). Render it inside {@link OnDemand}.
 */
export function onDemand<P extends object>(load: () => Promise<Record<string, unknown>>, name: string): ComponentType<P> {
  return lazy(async () => {
    const module = await load();
    const component = module[name];
    if (typeof component !== 'function') throw new Error(`The shell's chunk has no component ${name}: the build is inconsistent.`);
    return { default: component as ComponentType<P> };
  });
}

/** Where an on-demand component renders: `fallback` (default nothing) while its code arrives. */
export function OnDemand({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return <Suspense fallback={fallback}>{children}</Suspense>;
}
