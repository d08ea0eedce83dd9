/**
 * Type tests (issue 10 item 3), checked by `tsc --noEmit` (`npm test` runs it first): the request types offer the
 * known values for completion, reject what the calculators never accept, and still take any region or instance
 * string.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ClassificationType,
  type ClassificationTypeSpelling,
  type CloudInstanceSpelling,
  type CloudProviderSpelling,
  type CloudRegionSpelling,
  type CpuRequest,
  calculateCpu,
  calculateCpuBatch,
  calculateEmbodied,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateSpend,
  calculateSpendBatch,
  calculateStorage,
  calculateStorageBatch,
  createEngine,
  type DataUnitSpelling,
  type DurationUnitSpelling,
  type ErrorBody,
  type Estimate,
  type InstanceRequest,
  type KnownAwsInstance,
  type KnownAwsRegion,
  type KnownAzureRegion,
  type KnownGcpRegion,
  type MemoryRequest,
  type NetworkingRequest,
  type SpendRequest,
  type StorageRequest,
  type StorageTypeSpelling,
} from '../../src/index';
import { defaultDatasets } from '../../src/embedded/index';

const ds = defaultDatasets;

describe('provider', () => {
  it("is 'aws' | 'azure' | 'gcp' in any case", () => {
    expectTypeOf<'aws' | 'azure' | 'gcp'>().toExtend<CloudProviderSpelling>();
    expectTypeOf<'AWS' | 'Azure' | 'GCP'>().toExtend<CloudProviderSpelling>();
    expectTypeOf(calculateCpu).parameter(0).toEqualTypeOf<CloudProviderSpelling>();
    expectTypeOf(calculateCpuBatch).parameter(0).toEqualTypeOf<CloudProviderSpelling>();
  });

  it("'ibm' is a type error for every cloud calculator", () => {
    // @ts-expect-error 'ibm' is no provider
    calculateCpu('ibm', { cpu_count: 1, region: 'us_east_1', duration: 1 }, ds);
    // @ts-expect-error 'ibm' is no provider
    calculateMemory('ibm', { region: 'us_east_1', data: 1, duration: 1 }, ds);
    // @ts-expect-error 'ibm' is no provider
    calculateNetworking('ibm', { region: 'us_east_1', data: 1 }, ds);
    // @ts-expect-error 'ibm' is no provider
    calculateEmbodied('ibm', { instance: 't2.micro', instance_count: 1, duration: 1 }, ds);
    // @ts-expect-error 'ibm' is no provider
    calculateCpuBatch('ibm', [], ds);
    expectTypeOf<'ibm'>().not.toExtend<CloudProviderSpelling>();
  });
});

describe('regions and instances: the embedded ones completed, any string accepted', () => {
  it('the known unions hold the embedded spellings (provider id, request and hosted spelling)', () => {
    expectTypeOf<'us-east-1' | 'us_east_1' | 'af_south_1'>().toExtend<KnownAwsRegion>();
    expectTypeOf<'westeurope' | 'west_europe' | 'east_us_2'>().toExtend<KnownAzureRegion>();
    expectTypeOf<'europe-west1' | 'europe_west1' | 'europe_west_1'>().toExtend<KnownGcpRegion>();
    expectTypeOf<'westeurope'>().not.toExtend<KnownAwsRegion>();
    expectTypeOf<'t2.micro' | 'm5.large'>().toExtend<KnownAwsInstance>();
  });

  it("a request's region is its provider's known regions or any string", () => {
    expectTypeOf<CpuRequest<'aws'>['region']>().toEqualTypeOf<KnownAwsRegion | (string & {})>();
    expectTypeOf<CpuRequest<'azure'>['region']>().toEqualTypeOf<KnownAzureRegion | (string & {})>();
    expectTypeOf<CloudRegionSpelling<'GCP'>>().toEqualTypeOf<KnownGcpRegion | (string & {})>();
    expectTypeOf<CpuRequest['region']>().toEqualTypeOf<CloudRegionSpelling>();
    expectTypeOf<InstanceRequest<'aws'>['instance']>().toEqualTypeOf<KnownAwsInstance | (string & {})>();
    expectTypeOf<CloudInstanceSpelling>().toExtend<string>();
    // Completion: the literal survives beside `string & {}` (a plain `string` would absorb it).
    expectTypeOf<Extract<CpuRequest<'aws'>['region'], 'us-east-1'>>().toEqualTypeOf<'us-east-1'>();
    expectTypeOf<Extract<CpuRequest<'aws'>['region'], 'westeurope'>>().toEqualTypeOf<never>();
  });

  it("a custom dataset's region or instance still type-checks", () => {
    calculateCpu('aws', { cpu_count: 1, region: 'my-private-region', duration: 1 }, ds);
    calculateInstance('gcp', { instance: 'my-machine', region: 'x', duration: 1 }, ds);
  });
});

describe('units', () => {
  it('duration_unit: every accepted spelling, in lower, upper or capitalised case; not m or week', () => {
    expectTypeOf<CpuRequest['duration_unit']>().toEqualTypeOf<DurationUnitSpelling | undefined>();
    expectTypeOf<
      | 'hour'
      | 'hours'
      | 'h'
      | 'hr'
      | 'min'
      | 'minutes'
      | 'sec'
      | 's'
      | 'seconds'
      | 'ms'
      | 'day'
      | 'H'
      | 'Hours'
    >().toExtend<DurationUnitSpelling>();
    expectTypeOf<'m'>().not.toExtend<DurationUnitSpelling>();
    // @ts-expect-error 'week' is no duration unit
    calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1, duration_unit: 'week' }, ds);
    // @ts-expect-error 'm' is ambiguous (minutes or months?) and rejected
    calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1, duration_unit: 'm' }, ds);
  });

  it('data_unit: decimal and binary units and their names, any case', () => {
    expectTypeOf<MemoryRequest['data_unit']>().toEqualTypeOf<DataUnitSpelling | undefined>();
    expectTypeOf<NetworkingRequest['data_unit']>().toEqualTypeOf<DataUnitSpelling | undefined>();
    expectTypeOf<
      'GB' | 'gb' | 'TB' | 'MB' | 'GiB' | 'gib' | 'gigabytes' | 'TiB'
    >().toExtend<DataUnitSpelling>();
    // @ts-expect-error 'EB' is no data unit
    calculateNetworking('aws', { region: 'us_east_1', data: 1, data_unit: 'EB' }, ds);
  });
});

describe('storage type, audit trail, classification type', () => {
  it('storage_type is ssd or hdd, any case', () => {
    expectTypeOf<StorageRequest['storage_type']>().toEqualTypeOf<StorageTypeSpelling>();
    expectTypeOf<StorageTypeSpelling>().toEqualTypeOf<'ssd' | 'hdd' | 'SSD' | 'HDD' | 'Ssd' | 'Hdd'>();
    // @ts-expect-error 'tape' is no storage type
    calculateStorage('aws', { region: 'us_east_1', storage_type: 'tape', data: 1, duration: 1 }, ds);
  });

  it("audit_trail is 'enabled' or 'disabled'", () => {
    expectTypeOf<CpuRequest['audit_trail']>().toEqualTypeOf<'enabled' | 'disabled' | undefined>();
    expectTypeOf<SpendRequest['audit_trail']>().toEqualTypeOf<'enabled' | 'disabled' | undefined>();
  });

  it("classification_type is isic4, nace2, naics2017 or mcc (any case); 'unspsc' is a type error", () => {
    expectTypeOf<ClassificationType>().toEqualTypeOf<'isic4' | 'nace2' | 'naics2017' | 'mcc'>();
    expectTypeOf<'ISIC4' | 'Nace2' | 'naics2017'>().toExtend<ClassificationTypeSpelling>();
    const spend = { spend_year: 2023, spend_region: 'DE', money: 1, money_unit: 'eur' } as const;
    calculateSpend({ ...spend, activity: { classification_type: 'isic4', classification_code: '4711' } }, ds);
    calculateSpend(
      // @ts-expect-error 'unspsc' is no classification type of the embedded datasets
      { ...spend, activity: { classification_type: 'unspsc', classification_code: '30102200' } },
      ds,
    );
    // The activity_id form needs no classification type.
    calculateSpend({ ...spend, activity: { activity_id: 'x' } }, ds);
  });
});

describe('batches take arrays of the request type', () => {
  it('cloud and spend batches', () => {
    expectTypeOf(calculateCpuBatch).parameter(1).toEqualTypeOf<readonly CpuRequest[]>();
    expectTypeOf(calculateStorageBatch).parameter(1).toEqualTypeOf<readonly StorageRequest[]>();
    expectTypeOf(calculateSpendBatch).parameter(0).toEqualTypeOf<readonly SpendRequest[]>();
    expectTypeOf(calculateCpuBatch).returns.toEqualTypeOf<Array<Estimate | ErrorBody>>();
    // @ts-expect-error an element must be a request, not a number
    calculateCpuBatch('aws', [1], ds);
  });

  it('the engine keeps the types with the datasets bound', () => {
    const engine = createEngine(ds);
    engine.calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: 1, duration_unit: 'Hours' });
    // @ts-expect-error 'ibm' is no provider
    engine.calculateCpu('ibm', { cpu_count: 1, region: 'us_east_1', duration: 1 });
    expectTypeOf(engine.calculateCpuBatch).parameter(1).toEqualTypeOf<readonly CpuRequest[]>();
  });
});
