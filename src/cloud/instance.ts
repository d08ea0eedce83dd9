import { type Decimal, add, decimal, doubleDoubleOrNaN, mul, ZERO } from '../core/decimal';
import { dd, ddAdd, ddDivide, ddMul, decides, scaledDecimal } from '../core/double-double';
import {
  type AuditTrail,
  type CalculationMethod,
  type CalculationOptions,
  cachedTemplate,
  type EmbodiedMethod,
  type Estimate,
  type EstimateTemplate,
  type EstimateTemplates,
  type FactorMetadata,
  estimateFromCo2e,
  estimateOfTemplate,
  outputNumber,
  sharedNumber,
  templateOf,
} from '../core/estimate';
import { inBatch } from '../core/batch';
import { createRecordCache } from '../core/memo';
import { type DurationUnit, gibibytesToGigabytes, hoursRatio, toHours } from '../core/units';
import { parseRequest } from '../core/validate';
import { type CalculatorDatasets, requireDatasets } from '../datasets/require';
import type * as z from 'zod/mini';
import type { CloudProvider } from '../datasets/tables';
import type {
  CloudCoefficients,
  CloudDatasets,
  CloudInstance,
  CloudInstanceDatasets,
  CloudRegion,
} from '../datasets/types';
import {
  type CloudBatch,
  type CloudCalculator,
  cloudBatch,
  cloudCalculator,
  type ProviderCalculator,
} from './batch';
import { gridMethod } from './factors/provenance';
import { gridFactor, gridMetadata, kwhPerVcpuHour } from './factors/use-phase';
import {
  embodiedYear,
  newSpellingCache,
  remember,
  resolveInstance,
  resolveProvider,
  resolveRegion,
  spelled,
} from './resolve';
import { embodiedCo2e, type EmbodiedFactor, embodiedFactor, embodiedMethod } from './factors/embodied';
import { type CloudNotice, type GpuPower, gpuPower } from './gpu';
import { InstanceRequest, readInstanceRequest } from './instance.schema';
import { embodiedEstimate, embodiedTemplate } from './estimate';
import { pueAt } from './pue';
import { exactQuantity, type Quantity, type ResolvedRequest } from './use-phase-calculator';

/**
 * What an instance estimate needs besides the duration, each part cached by what it depends on, never per whole
 * request: a varied bill has almost as many instance × region × year × utilisation combinations as rows (95,820 in
 * 100,000, past the cache's bound), but few regions × years, instances and utilisations.
 */
interface Grid extends EstimateTemplates {
  grid: Decimal;
  gridMetadata: FactorMetadata;
  /** The grid factor as a double-double `gridHigh + gridLow` for the fast path (NaN: not positive, the exact path). */
  gridHigh: number;
  gridLow: number;
}
interface InstanceFigures {
  vcpu: Decimal;
  /** Memory kWh per hour of running, PUE included. */
  memoryKwhPerHour: Decimal;
  memoryGigabytes: Decimal;
  /** GB charged for memory electricity (CCF's app: only the memory above the processors' baseline). */
  chargedMemoryGigabytes: Decimal;
  /** The two as the numbers results publish without display rounding: converted once, not per estimate. */
  memoryNumber: number;
  chargedMemoryNumber: number;
  /** The GPU part, when the instance has GPUs with watts in the coefficients. */
  gpu: GpuPower | undefined;
  /** Why a part is left out (GPUs without figures). */
  notices: CloudNotice[];
  /** memoryKwhPerHour and the GPU's kWh per hour as double-doubles (undefined: the exact path). */
  memoryHigh: number;
  memoryLow: number;
  gpuHigh: number;
  gpuLow: number;
  /**
   * kWh per vCPU-hour by utilisation, for the type's watts' owner at this PUE: the map {@link vcpuPowers} shares
   * with every type of the same owner, held here so a request finds its entry in one lookup.
   */
  utilizations: Map<number, VcpuPower>;
  /**
   * The fast path's embodied parts, fetched without the factor of the year (`embodiedFactor`, whose own cache the
   * exact path reads): its template by year (the audit trail on under `year`, off under `-year`), and the numbers,
   * which are the same every year (only a factor's metadata has a year), from the first factor fetched.
   */
  embodiedTemplates: Map<number, EstimateTemplate>;
  embodiedNumbers: EmbodiedFactor | undefined;
}
/** kWh per vCPU-hour, exact and as a double-double. */
interface VcpuPower {
  exact: Decimal;
  high: number;
  low: number;
}

/**
 * GPU utilisation of the GPU part: CCF's constant (`AVG_CPU_UTILIZATION_2020`, 50 %), which CCF applies to GPU hours
 * as it does to vCPU hours without a measurement.
 */
const GPU_UTILIZATION_NUMBER = 0.5;
const GPU_UTILIZATION = decimal(GPU_UTILIZATION_NUMBER);

/** Grid factor and its metadata per region record (of a provider, in a regions table) and year. */
const grids = createRecordCache<CloudRegion, Grid>();
/** Per-instance figures per instance record and PUE (a region's PUE may differ from the provider's). */
const instanceFigures = createRecordCache<CloudInstance, InstanceFigures>();
/**
 * An instance type as requests spell it, in one provider's instance table: its record, and its figures with the
 * coefficients table and PUE they were derived for. A request finds both in one lookup by its spelling, where the
 * record's caches take a WeakMap and a Map more: on a varied batch, the first reads of cached objects are much of an
 * instance request's time.
 */
interface TypeSlot {
  readonly instance: CloudInstance;
  coefficients: object | undefined;
  pue: number;
  figures: InstanceFigures | undefined;
}
/** A region as requests spell it, in one provider's regions table: its record and its grids by year. */
interface RegionSlot {
  readonly region: CloudRegion;
  readonly grids: Map<number, Grid>;
}
const typeSlots = newSpellingCache<TypeSlot>();
const regionSlots = newSpellingCache<RegionSlot>();

/** Utilisations kept per watts' owner and PUE before their map starts afresh. */
const MAX_UTILIZATIONS = 4_096;

/** How the virtual-machine estimate was made. */
export interface InstanceCalculationDetails {
  /** Instance type as requested. */
  instance: string;
  /** Memory of the instance in GB (the provider's GiB × 1.073741824). */
  instance_memory: number;
  memory_unit: 'GB';
  vcpu_cores: number;
  average_vcpu_utilization: number;
  power_usage_effectiveness: number;
  /** CPU electricity, kWh. */
  energy_used_cpu: number;
  /** Memory electricity, kWh. */
  energy_used_memory: number;
  /**
   * Memory the electricity is charged for, GB, where the instance table charges less than the whole memory (the CCF
   * application's rule in `ccfAppDatasets`: the memory above the processors' baseline). Absent: all of it.
   */
  charged_memory?: number;
  /**
   * Watts per vCPU at idle and at 100 % utilisation that the CPU part used, where the instance table gives the type's
   * own (the CCF application's per-processor figures in `ccfAppDatasets`). Absent: the coefficients' per-provider
   * watts, as the CPU estimate's factor names them.
   */
  cpu_min_watts?: number;
  cpu_max_watts?: number;
  /** GPUs of the instance (present when it has a GPU part). */
  gpu_count?: number;
  /** Their model, as the coefficients name it (`Nvidia Tesla V100`). */
  gpu_model?: string;
  /** GPU utilisation of the GPU part: 0.5, CCF's constant. */
  average_gpu_utilization?: number;
  /** GPU electricity, kWh (present when the instance has a GPU part). */
  energy_used_gpu?: number;
  /**
   * How the platform's embodied figure behind `embodied_cpu_estimate` was obtained: `published` (the source's
   * figure), `derived from platform specs` (the Teads parts formula on the provider's published specs) or
   * `derived from predecessor family`.
   */
  embodied_method: EmbodiedMethod;
  energy_unit: 'kWh';
}

/** Result of {@link calculateInstance}: SPEC.md's "Virtual machine" response. */
export interface InstanceEstimate {
  /** Sum of the estimates' co2e (CPU, memory, GPU where there is one, embodied), kg. */
  total_co2e: number;
  total_co2e_unit: 'kg';
  memory_estimate: Estimate;
  cpu_estimate: Estimate;
  /**
   * GPU electricity (kWh × the grid factor), for instances with GPUs whose model has watts in the coefficients:
   * GPUs × (Wmin + 0.5 · (Wmax − Wmin)) × PUE per hour, as CCF estimates GPU instances.
   */
  gpu_estimate?: Estimate;
  embodied_cpu_estimate: Estimate;
  calculation_details: InstanceCalculationDetails;
  /**
   * What the estimate leaves out, when it does: `gpu_power_not_estimated` for an instance with GPUs (or other
   * accelerators) the datasets have no figures for.
   */
  notices?: CloudNotice[];
}

/** The dataset parts `calculateInstance` reads: coefficients, region grid factors and the instance table. */
export const INSTANCE_DATASETS = {
  calculator: 'calculateInstance',
  parts: ['cloudCoefficients', 'cloudRegions', 'cloudInstances'],
} as const satisfies CalculatorDatasets;

/** {@link calculateInstance} once its dataset parts and provider are checked. */
const instanceOf: ProviderCalculator<CloudInstanceDatasets, InstanceEstimate> = (
  id,
  coefficients,
  request,
  datasets,
  options,
) => {
  const input = parseRequest(InstanceRequest, request, readInstanceRequest);
  const type =
    spelled(typeSlots, datasets.cloudInstances, id, input.instance) ??
    newTypeSlot(id, input.instance, datasets);
  const place =
    spelled(regionSlots, datasets.cloudRegions, id, input.region) ??
    newRegionSlot(id, input.region, datasets);
  return instanceEstimate(
    id,
    coefficients,
    input,
    type.instance,
    place.region,
    datasets,
    options,
    type,
    place,
  );
};

/** The slot of an instance type's spelling, on a miss: `unknown_instance` where the table has no such type. */
const newTypeSlot = (id: CloudProvider, spelling: string, datasets: CloudInstanceDatasets): TypeSlot =>
  remember(typeSlots, datasets.cloudInstances, id, spelling, {
    instance: resolveInstance(id, spelling, datasets),
    coefficients: undefined,
    pue: Number.NaN,
    figures: undefined,
  })!;

/** The slot of a region's spelling, on a miss: `unknown_region` where the table has no such region. */
const newRegionSlot = (id: CloudProvider, spelling: string, datasets: CloudInstanceDatasets): RegionSlot =>
  remember(regionSlots, datasets.cloudRegions, id, spelling, {
    region: resolveRegion(id, spelling, datasets),
    grids: new Map<number, Grid>(),
  })!;

/**
 * A whole virtual machine: CPU and memory electricity (kWh, each × the grid factor of the region and year) and
 * embodied CPU emissions (instance-hours), with their sum; for an instance with GPUs, their electricity too
 * (`gpu_estimate`), or a notice that it is not included when the datasets have no figures for them. Memory is
 * charged in full, unless the instance table says how much is charged (`charged_memory_gb`, the CCF application's
 * rule in `ccfAppDatasets`). The PUE is the region's where the coefficients have one (`pue_by_region`); the CPU watts
 * are the type's where the instance table has them (`min_watts`/`max_watts`: CCF's per-processor figures in
 * `ccfAppDatasets`), else the provider's.
 *
 * @example
 * ```ts
 * const vm = calculateInstance('aws', { instance: 't2.micro', region: 'us_east_1', duration: 1, duration_unit: 'h' }, defaultDatasets);
 * vm.calculation_details.energy_used_cpu; // 0.0024062 kWh
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`, `unknown_instance`, `unknown_region`,
 *   `no_emission_factors_found` (year), `invalid_request`; `missing_dataset` (status 500) when `datasets` has no
 *   instance table.
 */
export const calculateInstance: CloudCalculator<InstanceRequest, InstanceEstimate> = cloudCalculator(
  instanceOf,
  INSTANCE_DATASETS,
);

/** An instance request after its schema, its duration a number or an exact decimal. */
export type InstanceInput = Omit<z.output<typeof InstanceRequest>, 'duration'> & { duration: Quantity };

/**
 * `calculateInstance` for a request already resolved (engine-internal: the billing reader): the region record given,
 * the duration possibly exact; the instance type is still resolved here (`unknown_instance`).
 */
export function instanceResolved(
  { provider, region, input }: ResolvedRequest<InstanceInput>,
  datasets: CloudDatasets,
  options?: CalculationOptions,
): InstanceEstimate {
  requireDatasets(datasets, INSTANCE_DATASETS);
  const { coefficients } = resolveProvider(provider, datasets);
  const instance = resolveInstance(provider, input.instance, datasets);
  return instanceEstimate(provider, coefficients, input, instance, region, datasets, options);
}

/** The grid factor of a region and year with its metadata and templates, on a cache miss. */
const newGrid = (id: CloudProvider, region: CloudRegion, year: number, datasets: CloudDatasets): Grid =>
  grids.get(region, datasets.cloudRegions, id, year, () => {
    const grid = gridFactor(region, year);
    const [gridHigh, gridLow] = doubleDoubleOrNaN(grid);
    return {
      grid,
      gridMetadata: gridMetadata(id, region, year, datasets),
      gridHigh,
      gridLow,
      // The electricity estimates' templates for the fast path, per audit trail, made on first use.
      enabled: undefined,
      disabled: undefined,
    };
  });

/** The grid of a region and year: from the region's slot where the request has one, else the record cache. */
function gridAt(
  id: CloudProvider,
  region: CloudRegion,
  year: number,
  datasets: CloudDatasets,
  place: RegionSlot | undefined,
): Grid {
  const kept = place?.grids.get(year);
  if (kept !== undefined) return kept;
  const grid = grids.find(region, datasets.cloudRegions, id, year) ?? newGrid(id, region, year, datasets);
  place?.grids.set(year, grid);
  return grid;
}

/** An instance type's figures at a PUE: from the type's slot where the request has one, else the record cache. */
function figuresAt(
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  pue: number,
  datasets: CloudInstanceDatasets,
  type: TypeSlot | undefined,
): InstanceFigures {
  if (type?.pue === pue && type.coefficients === datasets.cloudCoefficients && type.figures !== undefined) {
    return type.figures;
  }
  const figures =
    instanceFigures.find(instance, datasets.cloudCoefficients, datasets.cloudInstances, pue) ??
    newFigures(instance, coefficients, pue, datasets);
  if (type !== undefined) {
    type.coefficients = datasets.cloudCoefficients;
    type.pue = pue;
    type.figures = figures;
  }
  return figures;
}

/** An instance type's figures at a PUE, on a cache miss. */
const newFigures = (
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  pue: number,
  datasets: CloudInstanceDatasets,
): InstanceFigures =>
  instanceFigures.get(instance, datasets.cloudCoefficients, datasets.cloudInstances, pue, () => {
    const memoryGigabytes = gibibytesToGigabytes(decimal(instance.memory_gib));
    const chargedMemoryGigabytes =
      instance.charged_memory_gb === undefined ? memoryGigabytes : decimal(instance.charged_memory_gb);
    const { power, notice } = gpuPower(instance, coefficients, GPU_UTILIZATION, decimal(pue));
    const memoryKwhPerHour = mul(
      mul(chargedMemoryGigabytes, decimal(coefficients.memory_kwh_per_gb_hour)),
      decimal(pue),
    );
    const memory = doubleDoubleOrNaN(memoryKwhPerHour);
    const gpu = power === undefined ? [Number.NaN, Number.NaN] : doubleDoubleOrNaN(power.kwhPerHour);
    return {
      vcpu: decimal(instance.vcpu),
      utilizations: utilizationsOf(instance, coefficients, pue),
      embodiedTemplates: new Map<number, EstimateTemplate>(),
      embodiedNumbers: undefined,
      memoryKwhPerHour,
      memoryGigabytes,
      chargedMemoryGigabytes,
      memoryNumber: sharedNumber(memoryGigabytes, undefined),
      chargedMemoryNumber: sharedNumber(chargedMemoryGigabytes, undefined),
      gpu: power,
      notices: notice === undefined ? [] : [notice],
      memoryHigh: memory[0],
      memoryLow: memory[1],
      gpuHigh: gpu[0],
      gpuLow: gpu[1],
    };
  });

/**
 * CPU kWh per vCPU-hour, PUE included, by the watts' owner (the provider's coefficients record, or the instance type
 * where it has its own watts), then PUE, then utilisation: a few hundred entries for a whole fleet.
 */
const vcpuPowers = new WeakMap<object, Map<number, Map<number, VcpuPower>>>();

/** {@link vcpuPowers}' map by utilisation for an instance type's watts' owner at a PUE, made on first use. */
function utilizationsOf(
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  pue: number,
): Map<number, VcpuPower> {
  // The type's own CPU watts where the instance table has them (ccfAppDatasets), else the provider's.
  const owner = instance.max_watts === undefined ? coefficients : instance;
  let byPue = vcpuPowers.get(owner);
  if (byPue === undefined) vcpuPowers.set(owner, (byPue = new Map<number, Map<number, VcpuPower>>()));
  let byUtilization = byPue.get(pue);
  if (byUtilization === undefined) byPue.set(pue, (byUtilization = new Map<number, VcpuPower>()));
  return byUtilization;
}

/** kWh per vCPU-hour at a utilisation, from the figures' map or computed into it. */
function vcpuPower(
  figures: InstanceFigures,
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  utilization: number,
  pue: number,
): VcpuPower {
  const cached = figures.utilizations.get(utilization);
  if (cached !== undefined) return cached;
  const { min_watts: minWatts, max_watts: maxWatts } = instance;
  const watts =
    maxWatts === undefined ? coefficients : { ...coefficients, min_watts: minWatts!, max_watts: maxWatts };
  const exact = mul(kwhPerVcpuHour(watts, decimal(utilization)), decimal(pue));
  const [high, low] = doubleDoubleOrNaN(exact);
  const power = { exact, high, low };
  if (figures.utilizations.size >= MAX_UTILIZATIONS) figures.utilizations.clear();
  figures.utilizations.set(utilization, power);
  return power;
}

/** The template of the type's embodied estimates for a year and audit trail, from the figures' map or made into it. */
function embodiedTemplateOf(
  figures: InstanceFigures,
  id: CloudProvider,
  instance: CloudInstance,
  coefficients: CloudCoefficients,
  year: number,
  auditTrail: AuditTrail,
  datasets: CloudInstanceDatasets,
): EstimateTemplate {
  const key = auditTrail === 'enabled' ? year : -year;
  let template = figures.embodiedTemplates.get(key);
  if (template === undefined) {
    const embodied = embodiedFactor(id, instance, coefficients, year, datasets);
    template = embodiedTemplate(embodied, datasets.cloudInstances.gwp, auditTrail);
    figures.embodiedTemplates.set(key, template);
    figures.embodiedNumbers ??= embodied;
  }
  return template;
}

function instanceEstimate(
  id: CloudProvider,
  coefficients: CloudCoefficients,
  input: InstanceInput,
  instance: CloudInstance,
  region: CloudRegion,
  datasets: CloudInstanceDatasets,
  options: CalculationOptions | undefined,
  type?: TypeSlot,
  place?: RegionSlot,
): InstanceEstimate {
  const electricityYear = input.year ?? datasets.cloudRegions.defaultYear;
  const gridRecord = gridAt(id, region, electricityYear, datasets, place);
  const { grid } = gridRecord;
  const pue = pueAt(coefficients, region.region);
  const figures = figuresAt(instance, coefficients, pue, datasets, type);
  const perVcpu = vcpuPower(figures, instance, coefficients, input.average_vcpu_utilization, pue);
  const year = embodiedYear(input.year, datasets);
  const embodiedFast = embodiedTemplateOf(
    figures,
    id,
    instance,
    coefficients,
    year,
    input.audit_trail,
    datasets,
  );
  const method = gridMethod(datasets);
  let cpuEstimate: Estimate;
  let memoryEstimate: Estimate;
  let embodiedPart: Estimate;
  let gpuEstimate: Estimate | undefined;
  let totalNumber: number;
  if (
    options?.significantDigits === undefined &&
    typeof input.duration === 'number' &&
    fastNumbers(
      input.duration,
      input.duration_unit,
      gridRecord,
      instance.vcpu,
      perVcpu,
      figures,
      figures.embodiedNumbers!,
    )
  ) {
    // Every number decided in double-double arithmetic: the doubles the exact decimals below give.
    const electricity =
      cachedTemplate(gridRecord, input.audit_trail, method) ??
      templateOf(gridRecord, electricityParts(gridRecord, method, input.audit_trail));
    cpuEstimate = estimateOfTemplate(fast.cpu, electricity);
    memoryEstimate = estimateOfTemplate(fast.memory, electricity);
    embodiedPart = estimateOfTemplate(fast.hours, embodiedFast);
    if (figures.gpu !== undefined) gpuEstimate = estimateOfTemplate(fast.gpu, electricity);
    totalNumber = fast.total;
  } else {
    const embodied = embodiedFactor(id, instance, coefficients, year, datasets);
    const hours = toHours(exactQuantity(input.duration), input.duration_unit);
    // Exact products, so vCPU × (kWh per vCPU-hour × PUE) has the digits of (vCPU × kWh per vCPU-hour) × PUE.
    const energyCpu = mul(hours, mul(figures.vcpu, perVcpu.exact));
    const energyMemory = mul(hours, figures.memoryKwhPerHour);
    // The electricity estimates' co2e are computed once here and reused for the total.
    const cpuCo2e = mul(energyCpu, grid);
    const memoryCo2e = mul(energyMemory, grid);
    // CPU, memory and GPU electricity: kWh at the region's grid factor.
    const electricityEstimate = (co2e: Decimal, kwh: Decimal): Estimate =>
      estimateFromCo2e(
        co2e,
        { ...electricityParts(gridRecord, method, input.audit_trail), activityValue: kwh },
        options,
      );
    cpuEstimate = electricityEstimate(cpuCo2e, energyCpu);
    memoryEstimate = electricityEstimate(memoryCo2e, energyMemory);
    const embodiedKg = embodiedCo2e(hours, embodied);
    embodiedPart = embodiedEstimate(
      embodiedKg,
      hours,
      embodied,
      datasets.cloudInstances.gwp,
      input.audit_trail,
      options,
    );
    // The GPU part: electricity like the CPU's, at the same grid factor.
    let gpuCo2e = ZERO;
    if (figures.gpu !== undefined) {
      const energyGpu = mul(hours, figures.gpu.kwhPerHour);
      gpuCo2e = mul(energyGpu, grid);
      gpuEstimate = electricityEstimate(gpuCo2e, energyGpu);
    }
    totalNumber = outputNumber(add(add(add(cpuCo2e, memoryCo2e), gpuCo2e), embodiedKg), options);
  }

  const instanceMemory =
    options?.significantDigits === undefined
      ? figures.memoryNumber
      : sharedNumber(figures.memoryGigabytes, options);
  // Each object whole in one literal, in the response's order, where no optional part applies (no members added
  // after it is made); a batch's results have literals of their own (inBatch says why). The electricity estimates'
  // activity values are the kWh.
  const details: InstanceCalculationDetails =
    instance.charged_memory_gb === undefined && instance.max_watts === undefined && gpuEstimate === undefined
      ? inBatch()
        ? {
            instance: input.instance,
            instance_memory: instanceMemory,
            memory_unit: 'GB',
            vcpu_cores: instance.vcpu,
            average_vcpu_utilization: input.average_vcpu_utilization,
            power_usage_effectiveness: pue,
            energy_used_cpu: cpuEstimate.activity_data.activity_value,
            energy_used_memory: memoryEstimate.activity_data.activity_value,
            embodied_method: embodiedMethod(instance),
            energy_unit: 'kWh',
          }
        : {
            instance: input.instance,
            instance_memory: instanceMemory,
            memory_unit: 'GB',
            vcpu_cores: instance.vcpu,
            average_vcpu_utilization: input.average_vcpu_utilization,
            power_usage_effectiveness: pue,
            energy_used_cpu: cpuEstimate.activity_data.activity_value,
            energy_used_memory: memoryEstimate.activity_data.activity_value,
            embodied_method: embodiedMethod(instance),
            energy_unit: 'kWh',
          }
      : detailsWithParts(
          input,
          instance,
          figures,
          instanceMemory,
          pue,
          cpuEstimate,
          memoryEstimate,
          gpuEstimate,
          options,
        );
  const result: InstanceEstimate =
    gpuEstimate === undefined
      ? inBatch()
        ? {
            total_co2e: totalNumber,
            total_co2e_unit: 'kg',
            memory_estimate: memoryEstimate,
            cpu_estimate: cpuEstimate,
            embodied_cpu_estimate: embodiedPart,
            calculation_details: details,
          }
        : {
            total_co2e: totalNumber,
            total_co2e_unit: 'kg',
            memory_estimate: memoryEstimate,
            cpu_estimate: cpuEstimate,
            embodied_cpu_estimate: embodiedPart,
            calculation_details: details,
          }
      : {
          total_co2e: totalNumber,
          total_co2e_unit: 'kg',
          memory_estimate: memoryEstimate,
          cpu_estimate: cpuEstimate,
          gpu_estimate: gpuEstimate,
          embodied_cpu_estimate: embodiedPart,
          calculation_details: details,
        };
  if (figures.notices.length > 0) result.notices = figures.notices.map((notice) => ({ ...notice }));
  return result;
}

/**
 * The calculation details with their optional parts (charged memory, the type's own CPU watts, GPUs), built member
 * by member in the response's order.
 */
function detailsWithParts(
  input: InstanceInput,
  instance: CloudInstance,
  figures: InstanceFigures,
  instanceMemory: number,
  pue: number,
  cpuEstimate: Estimate,
  memoryEstimate: Estimate,
  gpuEstimate: Estimate | undefined,
  options: CalculationOptions | undefined,
): InstanceCalculationDetails {
  const details = {
    instance: input.instance,
    instance_memory: instanceMemory,
    memory_unit: 'GB',
    vcpu_cores: instance.vcpu,
    average_vcpu_utilization: input.average_vcpu_utilization,
    power_usage_effectiveness: pue,
    energy_used_cpu: cpuEstimate.activity_data.activity_value,
    energy_used_memory: memoryEstimate.activity_data.activity_value,
  } as InstanceCalculationDetails;
  if (instance.charged_memory_gb !== undefined) {
    details.charged_memory =
      options?.significantDigits === undefined
        ? figures.chargedMemoryNumber
        : sharedNumber(figures.chargedMemoryGigabytes, options);
  }
  if (instance.max_watts !== undefined) {
    details.cpu_min_watts = instance.min_watts!;
    details.cpu_max_watts = instance.max_watts;
  }
  if (figures.gpu !== undefined && gpuEstimate !== undefined) {
    details.gpu_count = figures.gpu.count;
    details.gpu_model = figures.gpu.model;
    details.average_gpu_utilization = GPU_UTILIZATION_NUMBER;
    details.energy_used_gpu = gpuEstimate.activity_data.activity_value;
  }
  details.embodied_method = embodiedMethod(instance);
  details.energy_unit = 'kWh';
  return details;
}

/** The parts of the CPU, memory and GPU electricity estimates besides their kWh: the grid's factor. */
const electricityParts = ({ grid, gridMetadata }: Grid, method: CalculationMethod, auditTrail: AuditTrail) =>
  ({
    activityUnit: 'kWh',
    factor: grid,
    metadata: gridMetadata,
    method,
    origin: 'co2e-engine',
    auditTrail,
  }) as const;

/** The numbers of one estimate from {@link fastNumbers} (a module slot: nothing allocated per request). */
const fast = { hours: 0, cpu: 0, memory: 0, gpu: 0, total: 0 };

/**
 * The published numbers of an instance estimate in double-double arithmetic (core/double-double.ts), into
 * {@link fast}: hours, CPU, memory and GPU kWh, and the total co2e, each the double nearest the exact decimal the
 * exact path computes (hours × vCPU × kWh per vCPU-hour, …; the total (CPU + memory + GPU kWh) × grid + hours ×
 * embodied numerator / denominator). False where any of them is not decided or a factor has no double-double (not
 * positive, or an embodied denominator that is not a whole double): the caller takes the exact path.
 */
function fastNumbers(
  duration: number,
  unit: DurationUnit,
  { gridHigh, gridLow }: Grid,
  vcpu: number,
  perVcpu: VcpuPower,
  figures: InstanceFigures,
  embodied: EmbodiedFactor,
): boolean {
  // NaN where a figure has no double-double (then the exact path).
  if (
    Number.isNaN(gridHigh + perVcpu.high + figures.memoryHigh + embodied.numeratorHigh) ||
    (figures.gpu !== undefined && Number.isNaN(figures.gpuHigh)) ||
    // vCPUs exact as a double (the exact path reads the count's shortest decimal).
    !Number.isSafeInteger(vcpu) ||
    embodied.denominatorNumber === undefined
  ) {
    return false;
  }
  const { times, per } = hoursRatio(unit);
  if (!scaledDecimal(duration, times, per)) return false;
  // Each number into `fast` as soon as it is decided (`decides`: no double returned from a call).
  const hoursHi = dd.hi;
  const hoursLo = dd.lo;
  if (!decides(hoursHi, hoursLo)) return false;
  fast.hours = hoursHi;
  ddMul(vcpu, 0, perVcpu.high, perVcpu.low);
  ddMul(hoursHi, hoursLo, dd.hi, dd.lo);
  let kwhHi = dd.hi;
  let kwhLo = dd.lo;
  if (!decides(kwhHi, kwhLo)) return false;
  fast.cpu = kwhHi;
  ddMul(hoursHi, hoursLo, figures.memoryHigh, figures.memoryLow);
  if (!decides(dd.hi, dd.lo)) return false;
  fast.memory = dd.hi;
  ddAdd(kwhHi, kwhLo, dd.hi, dd.lo);
  kwhHi = dd.hi;
  kwhLo = dd.lo;
  fast.gpu = 0;
  if (figures.gpu !== undefined) {
    ddMul(hoursHi, hoursLo, figures.gpuHigh, figures.gpuLow);
    if (!decides(dd.hi, dd.lo)) return false;
    fast.gpu = dd.hi;
    ddAdd(kwhHi, kwhLo, dd.hi, dd.lo);
    kwhHi = dd.hi;
    kwhLo = dd.lo;
  }
  ddMul(kwhHi, kwhLo, gridHigh, gridLow);
  const electricityHi = dd.hi;
  const electricityLo = dd.lo;
  ddMul(hoursHi, hoursLo, embodied.numeratorHigh, embodied.numeratorLow);
  ddDivide(dd.hi, dd.lo, embodied.denominatorNumber);
  ddAdd(electricityHi, electricityLo, dd.hi, dd.lo);
  if (!decides(dd.hi, dd.lo)) return false;
  fast.total = dd.hi;
  return true;
}

/**
 * {@link calculateInstance} for each request, in order; a bad request becomes its error body.
 *
 * @example
 * ```ts
 * calculateInstanceBatch('gcp', [{ instance: 'e2-standard-2', region: 'europe_west1', duration: 24 }], defaultDatasets);
 * ```
 * @throws {@link EmissionsError} `unsupported_provider`; `invalid_request` when `requests` is not an array.
 */
export const calculateInstanceBatch: CloudBatch<InstanceRequest, InstanceEstimate> = cloudBatch(
  instanceOf,
  INSTANCE_DATASETS,
);
