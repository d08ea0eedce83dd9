import { describe, expect, it } from 'vitest';
import { bundle } from './bundle';

/**
 * `co2e-engine/billing` imports no embedded factor data and no CLI code: a browser or warehouse job bundling it
 * gets the reader, its rules and the calculators, and passes its own datasets.
 */
describe('co2e-engine/billing', () => {
  it('bundles without dataset tables or CLI code', async () => {
    const { code, contributions } = await bundle(
      "import { estimateBilling } from 'co2e-engine/billing'; console.log(estimateBilling);",
    );
    for (const text of [
      'electricitymaps-yearly',
      'US-MIDA-PJM',
      't2.micro',
      'Paddy Rice',
      'cli-progress',
      '--resume',
    ])
      expect(code).not.toContain(text);
    // its own data is there: the rules and CCF's replication factors
    expect(code).toContain('aws-ebs-ssd');
    expect(code).toContain('EC2_EBS_VOLUME');
    expect(Object.keys(contributions)).not.toContain('cli');
  }, 60_000);
});
