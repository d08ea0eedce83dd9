/**
 * Issue 12 item 11: rows that are each well-formed but inconsistent are refused at load, naming the row.
 */
import { describe, expect, it } from 'vitest';
import coefficientsJson from '../../datasets/cloud/coefficients.json';
import instancesJson from '../../datasets/cloud/instances.json';
import {
  type CloudCoefficientsTable,
  type CloudInstancesTable,
  type SpendFactorsTable,
  createTableDatasets,
  DatasetError,
} from '../../src/index';
import { caught } from '../fixtures/caught';

const refusal = (load: () => unknown): DatasetError => caught(DatasetError, load, 'the table was accepted');

const coefficients = coefficientsJson as CloudCoefficientsTable;
const aws = coefficients.providers.aws!;

describe('inconsistent rows are refused at load', () => {
  it('min_watts above max_watts', () => {
    const table = { ...coefficients, providers: { aws: { ...aws, min_watts: 5, max_watts: 3 } } };
    const error = refusal(() => createTableDatasets({ cloudCoefficients: table }));
    expect([error.table, error.location, error.problem]).toEqual([
      'cloudCoefficients',
      'providers.aws.min_watts',
      'min_watts is greater than max_watts',
    ]);
  });

  it('a PUE below 1', () => {
    const table = { ...coefficients, providers: { aws: { ...aws, pue: 0.9 } } };
    const error = refusal(() => createTableDatasets({ cloudCoefficients: table }));
    expect([error.location, error.problem]).toEqual(['providers.aws.pue', 'a PUE below 1 is impossible']);
  });

  it('an instance with more vCPUs than its platform', () => {
    const base = instancesJson as CloudInstancesTable;
    const row = { ...base.instances[0]!, vcpu: 64, platform_vcpu: 2 };
    const table = { ...base, instances: [base.instances[1]!, row] };
    const error = refusal(() => createTableDatasets({ cloudInstances: table }));
    expect([error.location, error.problem]).toEqual([
      'instances.1.vcpu',
      'vcpu is greater than platform_vcpu (the instance cannot be larger than its host)',
    ]);
  });

  it('accepts min_watts equal to max_watts and a PUE of exactly 1', () => {
    const table = { ...coefficients, providers: { aws: { ...aws, min_watts: 3, max_watts: 3, pue: 1 } } };
    expect(() => createTableDatasets({ cloudCoefficients: table })).not.toThrow();
  });
});

describe('one activity_id naming two products within one spend factor table', () => {
  it('is refused, naming the second row', async () => {
    const { default: factorsJson } = await import('../../datasets/spend/useeio-factors.json');
    const base = factorsJson as unknown as SpendFactorsTable;
    const [first, second] = base.factors;
    const table = { ...base, factors: [first!, { ...second!, activity_id: first!.activity_id }] };
    const error = refusal(() => createTableDatasets({ spendFactors: table }));
    expect([error.table, error.location, error.problem]).toEqual([
      'spendFactors',
      'factors.1.activity_id',
      `duplicate activity_id ${first!.activity_id}: product ${second!.product} here, ${first!.product} in factors.0`,
    ]);
  });
});
