/**
 * `co2e-engine/impact-framework`: plugins for the Green Software Foundation's Impact Framework 1.x, loaded by a
 * manifest's `method:` and `path: co2e-engine/impact-framework`. Built with `PluginFactory` from `@grnsft/if-core`,
 * an optional peer dependency that IF itself installs; the root entry never imports it. See
 * docs/impact-framework.md.
 *
 * @example
 * ```yaml
 * initialize:
 *   plugins:
 *     cloud-instance:
 *       method: CloudInstance
 *       path: co2e-engine/impact-framework
 *       config: { datasets: default }
 * ```
 *
 * @packageDocumentation
 */
export {
  CloudCpu,
  CloudEmbodied,
  CloudInstance,
  CloudMemory,
  CloudNetworking,
  CloudStorage,
  type ImpactFrameworkPlugin,
  Spend,
} from './plugins';
