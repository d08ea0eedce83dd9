import type { FetchLike } from '../../node/fetch/download';
import type * as ProxyAgent from './proxy-agent';

/**
 * A `fetch` for the downloads that honours `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY` (either case),
 * which Node's own `fetch` ignores: an `https:` address goes through `HTTPS_PROXY`, an `http:` one through
 * `HTTP_PROXY`, both fall back to `ALL_PROXY`; a host `NO_PROXY` names (`example.org` also covers its subdomains,
 * `*` covers all) goes direct. Proxied requests use undici's `ProxyAgent` (CONNECT tunnels), loaded only when a
 * proxy is set.
 */

const pick = (env: Readonly<Record<string, string | undefined>>, ...names: string[]) => {
  for (const name of names) {
    const value = env[name.toLowerCase()] ?? env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
};

/** The proxy for `url` by the environment, or undefined to go direct. */
export function proxyFor(url: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const target = new URL(url);
  const proxy =
    target.protocol === 'https:'
      ? pick(env, 'HTTPS_PROXY', 'ALL_PROXY')
      : pick(env, 'HTTP_PROXY', 'ALL_PROXY');
  if (proxy === undefined) return undefined;
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of (pick(env, 'NO_PROXY') ?? '').split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return undefined;
    const [, name = entry, entryPort] = /^(.*?)(?::(\d+))?$/.exec(entry) ?? [];
    if (entryPort !== undefined && entryPort !== port) continue;
    const domain = name.replace(/^\*?\./, '');
    if (host === domain || host.endsWith(`.${domain}`)) return undefined;
  }
  return proxy;
}

/** The downloads' `fetch` for this environment, and `close` to release its connections. */
export function proxiedFetch(env: Readonly<Record<string, string | undefined>>): {
  fetch: FetchLike;
  close: () => Promise<void>;
} {
  const agents = new Map<string, { close(): Promise<void> }>();
  let undici: Promise<typeof ProxyAgent> | undefined;
  const doFetch: FetchLike = async (url, init) => {
    const proxy = proxyFor(url, env);
    if (proxy === undefined) return fetch(url, init);
    undici ??= import('./proxy-agent');
    const { fetch: undiciFetch, ProxyAgent } = await undici;
    let agent = agents.get(proxy) as InstanceType<typeof ProxyAgent> | undefined;
    if (agent === undefined) {
      agent = new ProxyAgent(proxy);
      agents.set(proxy, agent);
    }
    return (await undiciFetch(url, { ...init, dispatcher: agent })) as unknown as Response;
  };
  return {
    fetch: doFetch,
    close: async () => {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}
