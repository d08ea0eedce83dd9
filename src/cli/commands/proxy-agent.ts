/**
 * undici's `fetch` and `ProxyAgent`, which {@link proxiedFetch} (proxy-fetch.ts) imports only when a proxy is set.
 * A module of its own so that the bundled CLI keeps undici (about 0.8 MB) in dist/cli-proxy-agent.js: every other
 * command starts without compiling it (tsup.config.ts).
 */
export { fetch, ProxyAgent } from 'undici';
