/**
 * `co2e-engine/http`: SPEC.md's REST endpoints as a Web-standard handler, and a `node:http` adapter.
 *
 * @packageDocumentation
 */
export {
  createHandler,
  HANDLER_CEILINGS,
  type Authorize,
  type Handler,
  type HandlerOptions,
} from './create-handler';
export { toNodeListener, type NodeListener } from './node';
export type { WireEstimate } from './wire';
