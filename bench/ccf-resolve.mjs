// A module resolve hook for bench/ccf-varied.ts: `@cloud-carbon-footprint/core` (imported by ../shared/bench's CCF
// glue, which has no node_modules of its own) resolves to the copy bench/ccf.ts's loadCcf would require.
let target;
export function initialize(data) {
  target = data.url;
}
export async function resolve(specifier, context, next) {
  if (specifier === '@cloud-carbon-footprint/core' && target !== undefined)
    return { url: target, shortCircuit: true };
  return next(specifier, context);
}
