import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALCULATORS, type CalculatorId } from '../../src/calculators';
import { matchRoute } from '../../src/http/routes';
import { V1_CLOUD } from '../../src/http/v1/cloud';

/**
 * Issue 35 item 1: the HTTP routes, the v1 answers and openapi.json derive from the calculator registry; nothing
 * in src/http lists the calculators again.
 */

const IDS = Object.keys(CALCULATORS) as CalculatorId[];
const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, { post?: { operationId: string } }>;
};

describe('routes from the registry (issue 35 item 1)', () => {
  it('the registry has the seven calculators and their SPEC.md paths', () => {
    expect(Object.fromEntries(IDS.map((id) => [id, CALCULATORS[id].path]))).toEqual({
      cpu: '/compute/{provider_id}/cpu',
      memory: '/compute/{provider_id}/memory',
      storage: '/compute/{provider_id}/storage',
      networking: '/compute/{provider_id}/networking',
      embodied: '/compute/{provider_id}/embodied',
      instance: '/compute/{provider_id}/instance',
      spend: '/procurement/spend',
    });
  });

  it.each(IDS)('%s: its path and /batch route to it, in both spellings', (id) => {
    const path = CALCULATORS[id].path.replace('{provider_id}', 'a%20b');
    const versioned = path.replace(/^\/(\w+)/, '/$1/v1');
    const provider = CALCULATORS[id].family === 'cloud' ? { provider: 'a b' } : {};
    for (const [spelling, batch] of [
      [path, false],
      [`${path}/batch`, true],
      [versioned, false],
      [`${versioned}/batch/`, true],
    ] as const)
      expect(matchRoute(spelling, '')).toEqual({
        family: CALCULATORS[id].family,
        calculator: id,
        ...provider,
        batch,
      });
  });

  it.each([
    '/compute/aws',
    '/compute//cpu',
    '/compute/aws/spend',
    '/procurement/cpu',
    '/compute/%E0/cpu',
    '/compute/aws/cpu/x',
  ])('%s routes nowhere', (path) => expect(matchRoute(path, '')).toBeUndefined());

  it.each(IDS)('%s: openapi.json has its operations, named from the registry, in both versions', (id) => {
    const path = CALCULATORS[id].path;
    const versioned = path.replace(/^\/(\w+)/, '/$1/v1');
    expect(openapi.paths[path]?.post?.operationId).toBe(CALCULATORS[id].name);
    expect(openapi.paths[`${path}/batch`]?.post?.operationId).toBe(`${CALCULATORS[id].name}Batch`);
    expect(openapi.paths[versioned]?.post?.operationId).toBe(`${CALCULATORS[id].name}V1`);
  });

  it('every cloud calculator has a v1 answer', () => {
    expect(Object.keys(V1_CLOUD)).toEqual(IDS.filter((id) => CALCULATORS[id].family === 'cloud'));
  });
});
