import fc from 'fast-check';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { CpuRequest } from '../../src/cloud/cpu.schema';
import { EmbodiedRequest } from '../../src/cloud/embodied.schema';
import { InstanceRequest } from '../../src/cloud/instance.schema';
import { MemoryRequest } from '../../src/cloud/memory.schema';
import { NetworkingRequest } from '../../src/cloud/networking.schema';
import { StorageRequest } from '../../src/cloud/storage.schema';
import { SpendRequest } from '../../src/spend/spend.schema';
import { anyValue, cloudRequests, FUZZ_SEED, runs, spendRequest } from './arbitraries';

/**
 * parseRequest runs zod's compiled fast path (`z.compile`), which must agree with the ordinary parser on every
 * input: the same success, the same parsed value, the same issues. A disagreement would change results or errors
 * silently, so each request schema is compared on its own realistic requests and on arbitrary values.
 */
const aws = cloudRequests('aws');
const cases = [
  ['cpu', CpuRequest, aws.cpu],
  ['memory', MemoryRequest, aws.memory],
  ['storage', StorageRequest, aws.storage],
  ['networking', NetworkingRequest, aws.networking],
  ['embodied', EmbodiedRequest, aws.embodied],
  ['instance', InstanceRequest, aws.instance],
  ['spend', SpendRequest, spendRequest],
] as const;

describe.each(cases)('%s request schema', (_name, schema, requests) => {
  const compiled = z.compile(schema as z.ZodMiniType);

  it('the compiled parser agrees with the ordinary one', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof({ arbitrary: requests, weight: 4 }, { arbitrary: anyValue, weight: 1 }),
        (input) => {
          const fast = compiled.safeParse(input);
          const slow = (schema as z.ZodMiniType).safeParse(input);
          expect(fast.success).toBe(slow.success);
          if (fast.success && slow.success) {
            accepted++;
            expect(fast.data).toEqual(slow.data);
          } else {
            expect(fast.error?.issues).toEqual(slow.error?.issues);
          }
        },
      ),
      { numRuns: runs(400), seed: FUZZ_SEED },
    );
    // Control: the comparison covered valid requests too, not only rejections.
    expect(accepted).toBeGreaterThan(10);
  });
});
