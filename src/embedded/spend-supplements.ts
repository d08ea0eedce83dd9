import { deepFreeze } from '../core/freeze';
import exiobaseRegionsJson from '../../datasets/spend/exiobase-factors.oefdb-regions.json';
import { buildTableDatasets } from '../datasets/create';
import type { PartBuilder } from '../datasets/lazy';
import { mergeDatasets } from '../datasets/merge';
import type { SpendFactorsTable } from '../datasets/tables';

/**
 * EXIOBASE factors of OEFDB's 20-region working file that the released table lacks (AT, AU, BE, … FR, GR), in
 * their own CC BY-SA 4.0 file. Every row they share with the released table is identical (checked by the build), so
 * merging them only adds factors.
 *
 * @example
 * ```ts
 * import { exiobaseRegionsFactorsTable } from 'co2e-engine/datasets/spend';
 * exiobaseRegionsFactorsTable.factors.filter((row) => row.region === 'FR').length; // 37
 * ```
 */
export const exiobaseRegionsFactorsTable = /* @__PURE__ */ deepFreeze(
  exiobaseRegionsJson as SpendFactorsTable,
);

/**
 * Merges the working file's EXIOBASE factors (no key in common with the released table) into the spend factors of
 * every default, the released table as base, so each factor reports its own file as `source_dataset`. Its own
 * module so that the warehouse bundles share it without the USEEIO tables.
 *
 * @internal
 */
export const spendSupplements: PartBuilder = (part, own) =>
  part === 'spendFactors'
    ? mergeDatasets(own, buildTableDatasets({ spendFactors: exiobaseRegionsFactorsTable }))[part]
    : own[part];
