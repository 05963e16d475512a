import type { ComponentType } from 'react';

const KEY = 'agora:chunk-reload-at';
const GUARD_MS = 10_000;

/**
 * A route module loaded on demand. After a deploy the old chunk may be gone: the page
 * reloads once to pick up the new build, at most once per 10 s so a real outage does
 * not loop.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return async () => {
    try {
      const mod = await load();
      return { Component: mod.default };
    } catch (err) {
      const last = Number(sessionStorage.getItem(KEY) ?? 0);
      if (Date.now() - last > GUARD_MS) {
        sessionStorage.setItem(KEY, String(Date.now()));
        window.location.reload();
        return new Promise<never>(() => {});
      }
      throw err;
    }
  };
}
