import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The cache folder of downloaded releases: `$XDG_CACHE_HOME/co2e-engine` where `XDG_CACHE_HOME` is set (any
 * platform), else `~/Library/Caches/co2e-engine` on macOS, `%LOCALAPPDATA%\co2e-engine\Cache` on Windows and
 * `~/.cache/co2e-engine` elsewhere.
 *
 * @example
 * ```ts
 * defaultCacheDir({ XDG_CACHE_HOME: '/var/cache' }); // '/var/cache/co2e-engine'
 * ```
 */
export function defaultCacheDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '') return join(xdg, 'co2e-engine');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'co2e-engine');
  if (platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'co2e-engine', 'Cache');
  return join(home, '.cache', 'co2e-engine');
}
