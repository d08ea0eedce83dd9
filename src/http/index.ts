/**
 * `co2e-engine/http`: SPEC.md's REST endpoints as a Web-standard handler, a `node:http` adapter of it, and a direct `node:http`
 * listener sharing its rules.
 *
 * @packageDocumentation
 */
export {
  ANSWER_SIZE,
  createHandler,
  HANDLER_CEILINGS,
  type Authorize,
  type AuthorizeVerdict,
  type Handler,
  type HandlerOptions,
} from './create-handler';
export { answerClientError } from './client-error';
export type { CorsOptions } from './cors';
export { toNodeListener, type NodeListener } from './node';
export { createNodeListener, type NodeHandlerOptions } from './node-handler';
export type { WireEstimate } from './wire';
