import { CLOUD_CALCULATOR_IDS, CLOUD_CALCULATORS, type CloudCalculatorId } from '../../cloud/calculators';
import type { InstanceEstimate } from '../../cloud/instance';
import { EmissionsError, shownInput } from '../../core/errors';
import type { Estimate } from '../../core/estimate';
import { CLOUD_PROVIDERS } from '../../datasets/tables';
import type { CloudDatasets } from '../../datasets/types';
import { cellValue, pickFields } from './cells';
import type { ColumnSpec, RowAdapter, RowOutcome } from '../pipeline/row-adapter';
import { estimateOutcome } from './outcome';
import { add, decimal, div, toNumber } from '../../core/decimal';

type Calculator = (provider: string, request: never, datasets: CloudDatasets) => Estimate | InstanceEstimate;

/** Every request field of any cloud calculator; a row passes those it fills, and the calculator rejects strangers. */
export const CLOUD_REQUEST_COLUMNS: readonly string[] = [
  ...new Set(Object.values(CLOUD_CALCULATORS).flatMap(({ schema }) => Object.keys(schema.shape))),
];

/**
 * The cloud columns for the header check: `calculator` and `provider` are needed by every row, the rest by some
 * calculators only (their rows say what they miss).
 */
export const CLOUD_COLUMNS: ColumnSpec = {
  required: [[['calculator']], [['provider']]],
  known: ['calculator', 'provider', ...CLOUD_REQUEST_COLUMNS],
  aliases: {
    cloud_provider: 'provider',
    cloud: 'provider',
    instance_type: 'instance',
    vcpus: 'cpu_count',
    vcpu_count: 'cpu_count',
  },
};

function requiredText(
  values: Record<string, unknown>,
  column: string,
  valid: readonly string[],
  source: 'csv' | 'jsonl',
) {
  const value = cellValue(values[column], column, source);
  if (value === undefined) {
    throw new EmissionsError('invalid_request', `'${column}' is required; one of ${valid.join(', ')}.`, {
      path: column,
      valid_values: valid,
    });
  }
  if (typeof value !== 'string') {
    throw new EmissionsError('invalid_request', `'${column}' must be a string.`, {
      path: column,
      valid_values: valid,
    });
  }
  return value;
}

/** A whole VM: co2e is total_co2e; the activity is instance-hours; both factors (grid and embodied) are named. */
function instanceOutcome(result: InstanceEstimate): RowOutcome {
  const factors = [result.cpu_estimate.emission_factor, result.embodied_cpu_estimate.emission_factor];
  const join = (pick: (factor: NonNullable<Estimate['emission_factor']>) => string) =>
    factors.every((factor) => factor !== null)
      ? [...new Set(factors.map((factor) => pick(factor)))].join('; ')
      : null;
  return {
    co2e: result.total_co2e,
    co2e_unit: result.total_co2e_unit,
    activity_value: result.embodied_cpu_estimate.activity_data.activity_value,
    activity_unit: result.embodied_cpu_estimate.activity_data.activity_unit,
    factor_id: join((factor) => factor.id),
    factor_name: join((factor) => factor.name),
    factor_source: join((factor) => factor.source),
    factor_region: result.cpu_estimate.emission_factor?.region ?? null,
    factor_year: result.cpu_estimate.emission_factor?.year ?? null,
    // CPU, memory and, where the instance has a GPU part, GPU electricity.
    energy_kwh: toNumber(
      add(
        add(
          decimal(result.calculation_details.energy_used_cpu),
          decimal(result.calculation_details.energy_used_memory),
        ),
        decimal(result.calculation_details.energy_used_gpu ?? 0),
      ),
    ),
    // What the estimate leaves out (GPUs without figures) goes to the row's notices column.
    notices: result.notices ?? [],
  };
}

/**
 * The electricity behind a use-phase estimate: co2e over the grid factor of its region and year (the estimate is
 * kWh × grid, so the quotient is the kWh with PUE); null for embodied rows and where the grid factor is unknown.
 */
function useEnergy(
  calculator: CloudCalculatorId,
  provider: string,
  request: Record<string, unknown>,
  estimate: Estimate,
  datasets: CloudDatasets,
): number | null {
  if (calculator === 'embodied' || estimate.emission_factor === null) return null;
  const region = datasets.cloudRegions.get(provider.toLowerCase() as never, String(request.region));
  const grid = region?.grid_factors[String(estimate.emission_factor.year)];
  if (grid === undefined || grid === 0) return null;
  return toNumber(div(decimal(estimate.co2e), decimal(grid)));
}

/**
 * Cloud rows: `calculator` (cpu, memory, storage, networking, embodied, instance) and `provider` name the
 * calculation, the calculators' request columns make the request; other columns pass through. Summary: by
 * provider and by calculator.
 */
export function cloudRows(datasets: CloudDatasets): RowAdapter {
  return {
    name: 'cloud',
    groupings: { provider: 'by provider', calculator: 'by calculator' },
    columns: CLOUD_COLUMNS,
    compute(values, source, reading = {}) {
      const name = requiredText(values, 'calculator', CLOUD_CALCULATOR_IDS, source).toLowerCase();
      if (!Object.hasOwn(CLOUD_CALCULATORS, name)) {
        throw new EmissionsError(
          'invalid_request',
          `'${shownInput(name)}' is not a calculator; one of ${CLOUD_CALCULATOR_IDS.join(', ')}.`,
          { path: 'calculator', valid_values: CLOUD_CALCULATOR_IDS },
        );
      }
      const calculator = name as CloudCalculatorId;
      const provider = requiredText(values, 'provider', CLOUD_PROVIDERS, source);
      const request = pickFields(values, CLOUD_REQUEST_COLUMNS, source, reading.decimalComma);
      const calculate = CLOUD_CALCULATORS[calculator].calculate as Calculator;
      const result = calculate(provider, request as never, datasets);
      const outcome =
        calculator === 'instance'
          ? instanceOutcome(result as InstanceEstimate)
          : estimateOutcome(
              result as Estimate,
              useEnergy(calculator, provider, request, result as Estimate, datasets),
              [],
            );
      return {
        outcome,
        groups: { provider: provider.toLowerCase(), calculator },
      };
    },
  };
}
