import * as z from 'zod/mini';
import englishLocale from 'zod/v4/locales/en.js';
import { CLOUD_PROVIDERS, GWP_METHODS } from './constants';
import { regionKey } from './keys';

/**
 * The JSON-serialisable table formats that every dataset is made of.
 *
 * The embedded defaults in `datasets/` are generated in exactly these shapes by `scripts/datasets/`, and
 * `createTableDatasets(tables)` validates user tables against the same schemas, so hand-written tables, database
 * exports and the defaults all go through one gate.
 */

const nonNegative = z.number().check(z.nonnegative());
const positive = z.number().check(z.positive());
const year = z.number().check(z.int(), z.minimum(1900), z.maximum(2200));
const nonEmpty = z.string().check(z.minLength(1));
const regionCode = z.string().check(z.regex(/^[A-Z]{2}$/));
const currencyCode = z.string().check(z.regex(/^[a-z]{3}$/));
/**
 * Bounds that keep every derived figure a finite, nonzero number (issue: a rate of 1e100 % made inflation_applied
 * Infinity and co2e 0). Annual inflation above −100 % and at most 1,000,000 % (the World Bank's highest is about
 * 24,000 %); exchange rates within 1e-15 … 1e15 units per USD (the embedded ones span 1.2e-10 … 6.7e9).
 */
const inflationRate = z
  .number()
  .check(
    z.gt(-100),
    z.lte(
      1_000_000,
      'an annual inflation rate above 1,000,000 % is not plausible (is it a factor, not a percentage?)',
    ),
  );
const fxRate = z
  .number()
  .check(
    z.positive(),
    z.gte(1e-15, 'an exchange rate below 1e-15 units per USD is not plausible'),
    z.lte(1e15, 'an exchange rate above 1e15 units per USD is not plausible'),
  );
const yearKey = z.string().check(z.regex(/^\d{4}$/, 'a four-digit year'));

/**
 * zod/mini words no problem itself: a table's problems are worded by zod's English locale, given per parse so an
 * app's own global zod configuration is left alone. Made on first use, so an app that validates no table loads none.
 */
let english: { error: z.core.$ZodErrorMap } | undefined;

/**
 * Validates a table against its schema, with problems in English (`Too small: expected number to be >=0`).
 */
export function safeParseTable<S extends z.ZodMiniType>(
  schema: S,
  table: unknown,
): z.core.util.SafeParseResult<z.output<S>> {
  english ??= { error: englishLocale().localeError };
  return schema.safeParse(table, english);
}

/** Provenance carried by every table and echoed into each estimate's factor metadata. */
export const DatasetInfo = z.strictObject({
  /** Stable id of the dataset, e.g. `ccf-electricitymaps`. Part of every factor id. */
  id: nonEmpty,
  /** Dataset version; a change here changes every factor id derived from the table. */
  version: nonEmpty,
  /** Publisher(s), shown as `emission_factor.source`. */
  source: nonEmpty,
  /** Dataset name of the publisher(s), shown as `emission_factor.source_dataset`. */
  source_dataset: nonEmpty,
  licence: nonEmpty,
  attribution: nonEmpty,
});
export type DatasetInfo = z.infer<typeof DatasetInfo>;

export { CLOUD_PROVIDERS, GWP_METHODS };
export const CloudProvider = z.enum(CLOUD_PROVIDERS);
export type CloudProvider = z.infer<typeof CloudProvider>;

/** CCF coefficients per provider (watts, PUE, memory/storage/networking coefficients, lifetime). */
export const CloudCoefficientsTable = z.strictObject({
  dataset: DatasetInfo,
  providers: z.partialRecord(
    CloudProvider,
    z
      .strictObject({
        /** Watts per vCPU at idle. */
        min_watts: nonNegative,
        /** Watts per vCPU at 100 % utilisation. */
        max_watts: nonNegative,
        /** Data-centre power usage effectiveness. */
        pue: positive,
        /** kWh per GB-hour of memory. */
        memory_kwh_per_gb_hour: nonNegative,
        /** Wh per TB-hour of SSD storage. */
        ssd_wh_per_tb_hour: nonNegative,
        /** Wh per TB-hour of HDD storage. */
        hdd_wh_per_tb_hour: nonNegative,
        /** kWh per GB transferred. */
        networking_kwh_per_gb: nonNegative,
        /** Expected server lifetime in hours, over which embodied emissions are spread. */
        server_lifetime_hours: positive,
        /**
         * PUE of particular regions (the provider's region id), used instead of `pue` there (CCF's GCP
         * trailing-twelve-month figures). Optional.
         */
        pue_by_region: z.optional(
          z.record(nonEmpty, z.number().check(z.gte(1, 'a PUE below 1 is impossible'))),
        ),
        /**
         * Watts per GPU at idle and at 100 % utilisation, by GPU model (the `gpu_model` of instance rows).
         * Optional; an instance whose GPU model has no entry is estimated without its GPUs, with a notice.
         */
        gpu_watts: z.optional(
          z.record(
            nonEmpty,
            z.strictObject({ min_watts: nonNegative, max_watts: nonNegative }).check(
              z.refine((w) => w.min_watts <= w.max_watts, {
                message: 'min_watts is greater than max_watts',
                path: ['min_watts'],
              }),
            ),
          ),
        ),
      })
      .check(
        z.refine((c) => c.min_watts <= c.max_watts, {
          message: 'min_watts is greater than max_watts',
          path: ['min_watts'],
        }),
        z.refine((c) => c.pue >= 1, { message: 'a PUE below 1 is impossible', path: ['pue'] }),
      ),
  ),
});
export type CloudCoefficientsTable = z.infer<typeof CloudCoefficientsTable>;

/**
 * A factor as its publisher stated it for one resource of a region: kg CO2e per the calculator's activity unit
 * (CPU-hour at the default 50 % utilisation, GB-hour, TB-hour, GB), with the publisher's own id, name and location.
 */
export const PublishedFactor = z.strictObject({
  year,
  factor: nonNegative,
  /** The publisher's activity id (`cpu-provider_azure-region_east_us_2`). */
  activity_id: nonEmpty,
  /** The publisher's factor name (`AZURE (east-us-2) CPU`). */
  name: nonEmpty,
  /** The publisher's location code (`US-VA`, `DE-FRA`). */
  location: nonEmpty,
});

/** Provider regions with location and grid emission factors per year. */
export const CloudRegionsTable = z.strictObject({
  dataset: DatasetInfo,
  /** Year used when a request gives none. */
  default_year: year,
  /** Unit of `grid_factors` values: always kilograms CO2e per kWh. */
  unit: z.literal('kg/kWh'),
  /** GWP basis of the grid factors, echoed as `co2e_calculation_method`. */
  gwp: z.enum(GWP_METHODS),
  regions: z.array(
    z
      .strictObject({
        provider: CloudProvider,
        /** Provider's own region id, with hyphens as the provider writes it (`us-east-1`, `westeurope`). */
        region: nonEmpty,
        /**
         * The hosted API's spelling of the region where it cannot be derived from `region`: lowercase words and
         * numbers joined by `_` (Azure `westeurope` → `west_europe`, `eastus2` → `east_us_2`). It names the factors
         * (`cpu-provider_azure-region_west_europe`, `AZURE (west-europe) CPU`) and is listed among the region's
         * aliases. Optional: absent, it is derived from `region` (`-` → `_`, `_` before a trailing number), which is
         * the hosted spelling of every AWS and GCP region.
         */
        hosted_spelling: z.optional(
          z
            .string()
            .check(z.regex(/^[a-z0-9]+(_[a-z0-9]+)*$/, 'must be lowercase words and numbers joined by _')),
        ),
        /** Location code (ISO 3166-1 alpha-2, optionally `-` and a subdivision or UN/LOCODE place). */
        location: nonEmpty,
        /** Zone or grid the factor belongs to (e.g. an Electricity Maps zone `US-MIDA-PJM`). */
        grid_zone: nonEmpty,
        /** kg CO2e per kWh, by four-digit year. */
        grid_factors: z.record(yearKey, nonNegative),
        /** Where each year's figure comes from (a short citation, by year). */
        grid_sources: z.record(yearKey, nonEmpty),
        /**
         * Factors a publisher stated per resource, used instead of the computed ones for their year (the hosted
         * API's 2021 set). Optional; a region without them has every factor computed from its grid factor.
         */
        published_factors: z.optional(
          z.strictObject({
            cpu: z.optional(PublishedFactor),
            memory: z.optional(PublishedFactor),
            storage_ssd: z.optional(PublishedFactor),
            storage_hdd: z.optional(PublishedFactor),
            networking: z.optional(PublishedFactor),
          }),
        ),
      })
      .check(
        // Otherwise a table could name a region's factors after another region.
        z.refine(
          (r) => r.hosted_spelling === undefined || regionKey(r.hosted_spelling) === regionKey(r.region),
          {
            message: 'hosted_spelling must spell the same region as region (ignoring case, - and _)',
            path: ['hosted_spelling'],
          },
        ),
      ),
  ),
  /**
   * Regions the table deliberately has no factor for, each with the reason (a zone without data, no figure in the
   * source). Optional; listed by `listCapabilities` and `GET /compute/metadata`.
   */
  unsupported: z.optional(
    z.array(
      z.strictObject({
        provider: CloudProvider,
        region: nonEmpty,
        reason: nonEmpty,
      }),
    ),
  ),
});
export type CloudRegionsTable = z.infer<typeof CloudRegionsTable>;

/** Instance types with their specs and the embodied emissions of their host platform. */
export const CloudInstancesTable = z.strictObject({
  dataset: DatasetInfo,
  /** Year used for embodied estimates when a request gives none. */
  default_year: year,
  /** GWP basis of the embodied figures, echoed as `co2e_calculation_method`. */
  gwp: z.enum(GWP_METHODS),
  /** Years an embodied estimate may be asked for (embodied factors do not vary by year). */
  years: z.array(year).check(z.minLength(1)),
  instances: z.array(
    z
      .strictObject({
        provider: CloudProvider,
        /** Instance type as the provider writes it (`t2.micro`, `Standard_D2s_v3`, `e2-standard-2`). */
        instance: nonEmpty,
        vcpu: positive,
        /** Memory in GiB (providers publish GiB; reported as GB = GiB × 1.073741824). */
        memory_gib: positive,
        /** vCPUs of the whole host platform (the largest instance of the family). */
        platform_vcpu: positive,
        /** Embodied emissions of the whole host platform, kg CO2e. */
        platform_embodied_kgco2e: nonNegative,
        /** GPUs attached to the instance (optional; absent or 0: none). */
        gpu_count: z.optional(z.number().check(z.int(), z.nonnegative())),
        /** The GPUs' model, as the coefficients' `gpu_watts` names it (`Nvidia Tesla V100`). */
        gpu_model: z.optional(nonEmpty),
        /**
         * GB of memory whose electricity an instance-hour is charged with, where it is not the whole memory (CCF's
         * application charges only the memory above its processors' baseline: `ccfAppDatasets`). Optional; absent:
         * the whole memory, `memory_gib` in GB.
         */
        charged_memory_gb: z.optional(nonNegative),
        /**
         * Watts per vCPU at idle and at 100 % utilisation for this type's processors, where the table has them
         * (`ccfAppDatasets`: CCF's per-processor figures averaged over the processors CCF maps to the type). Both or
         * neither; absent: the coefficients' `min_watts` and `max_watts`.
         */
        min_watts: z.optional(nonNegative),
        max_watts: z.optional(nonNegative),
        /**
         * How `platform_embodied_kgco2e` was obtained, where it is not the source's published figure:
         * `derived from platform specs` (the Teads parts formula applied to the provider's published specs,
         * `src/cloud/factors/platform-embodied.ts`) or `derived from predecessor family` (a predecessor's published
         * figure scaled, datasets/SOURCES.md). Optional; absent: `published`.
         */
        embodied_method: z.optional(
          z.enum(['derived from platform specs', 'derived from predecessor family']),
        ),
      })
      .check(
        z.refine((i) => i.vcpu <= i.platform_vcpu, {
          message: 'vcpu is greater than platform_vcpu (the instance cannot be larger than its host)',
          path: ['vcpu'],
        }),
        z.refine((i) => (i.gpu_count ?? 0) === 0 || i.gpu_model !== undefined, {
          message: 'gpu_count without gpu_model',
          path: ['gpu_model'],
        }),
        z.refine((i) => (i.min_watts === undefined) === (i.max_watts === undefined), {
          message: 'min_watts and max_watts go together',
          path: ['max_watts'],
        }),
        z.refine(
          (i) => i.min_watts === undefined || i.max_watts === undefined || i.min_watts <= i.max_watts,
          {
            message: 'min_watts is greater than max_watts',
            path: ['min_watts'],
          },
        ),
      ),
  ),
  /**
   * Types a source lists that the table leaves out, grouped by source and reason (no embodied figure, a figure
   * outside its family's band, ...). Optional; listed by `listCapabilities` and `GET /compute/metadata`.
   */
  excluded: z.optional(
    z.array(
      z.strictObject({
        provider: CloudProvider,
        /** The source file that lists them. */
        source: nonEmpty,
        reason: nonEmpty,
        instances: z.array(nonEmpty).check(z.minLength(1)),
      }),
    ),
  ),
});
export type CloudInstancesTable = z.infer<typeof CloudInstancesTable>;

/** What every spend factor set states about its factors, in the table and in the grid form alike. */
const SPEND_FACTORS_HEADER = {
  dataset: DatasetInfo,
  /** ISO 4217 code, lowercase, of the factors' money unit (`eur`, `usd`). */
  currency: currencyCode,
  /** Price year of the factors' money unit. */
  factor_year: year,
  /** Price basis: `basic` factors need margins stripped; `purchaser` factors already include them. */
  price_basis: z.enum(['basic', 'purchaser']),
  /** GWP basis of `kgco2e`; `kgco2e_alt` may hold the same factor under another basis. */
  gwp: z.enum(GWP_METHODS),
  /** Product classification the factors are keyed by (`exiobase3p`, `naics2017`). */
  product_classification: nonEmpty,
  /**
   * The one country whose money the factors are priced in, for every region (CEDA: `US`): spend is brought to the
   * factor year with that country's price index and its default margins, not the spend region's. Absent: each
   * region's own.
   */
  basis_region: z.optional(regionCode),
  /**
   * The region code whose factors answer a country the table has no factors for (CEDA's `ROW`, stored as `WW`),
   * with a notice. Absent: such a country is an error (or its EXIOBASE rest-of-world region).
   */
  rest_of_world_region: z.optional(regionCode),
};

/** Spend factors: kg CO2e per unit of money (in `currency` of `factor_year`) per (product, region). */
export const SpendFactorsTable = z.strictObject({
  ...SPEND_FACTORS_HEADER,
  factors: z
    .array(
      z.strictObject({
        product: nonEmpty,
        /** ISO 3166-1 alpha-2 or a model region code (`WA`, `WE`, ...). */
        region: regionCode,
        kgco2e: nonNegative,
        /** The same factor under other GWP bases, where the source gives them. */
        kgco2e_alt: z.optional(z.partialRecord(z.enum(GWP_METHODS), nonNegative)),
        name: nonEmpty,
        activity_id: nonEmpty,
        data_quality_flags: z.array(z.string()),
      }),
    )
    .check(
      z.superRefine((factors, ctx) => {
        // An activity_id names one product (its rows differ only by region); naming two, the later row would
        // silently win. Across merged datasets repeats are allowed and resolved by mergeDatasets' precedence.
        const firstRow = new Map<string, number>();
        factors.forEach((factor, index) => {
          const first = firstRow.get(factor.activity_id);
          if (first === undefined) firstRow.set(factor.activity_id, index);
          else if (factors[first]!.product !== factor.product)
            ctx.addIssue({
              code: 'custom',
              path: [index, 'activity_id'],
              message:
                `duplicate activity_id ${factor.activity_id}: product ${factor.product} here, ` +
                `${factors[first]!.product} in factors.${first}`,
            });
        });
      }),
    ),
});
export type SpendFactorsTable = z.infer<typeof SpendFactorsTable>;

/**
 * Spend factors as a grid, region × product, for a source that gives one factor per cell (Open CEDA: 149 regions ×
 * 400 sectors), about a twentieth of the same table as rows. {@link spendFactorsFromGrid} turns it into a
 * {@link SpendFactorsTable}: product `p` in region `r` is `regions[r][i]` where `products[i]` is `p`; a `null`
 * cell is a factor the source withholds (`withheld` says why), which the table leaves out.
 */
export const SpendFactorsGrid = z
  .strictObject({
    /** The licence and attribution the source requires, carried in the data file itself. */
    licence_notice: nonEmpty,
    ...SPEND_FACTORS_HEADER,
    /** Each factor's `activity_id` is this prefix and the product code in lower case (`ceda_2024-327310`). */
    activity_id_prefix: nonEmpty,
    /** Data-quality flags of every factor (e.g. the source's rounding). */
    data_quality_flags: z.array(nonEmpty),
    /** The products in column order, as `[code, name]`. */
    products: z.array(z.tuple([nonEmpty, nonEmpty])).check(z.minLength(1)),
    /** Per region (ISO 3166-1 alpha-2, or the rest-of-world code), one factor per product; null = withheld. */
    regions: z.record(regionCode, z.array(z.nullable(nonNegative))),
    /** The source's own code of each region (`DEU` for `DE`, `ROW` for the rest of world). */
    source_region_codes: z.record(regionCode, nonEmpty),
    /** Why a cell is null. */
    withheld: nonEmpty,
  })
  .check(
    z.superRefine((grid, ctx) => {
      for (const [region, values] of Object.entries(grid.regions)) {
        if (values.length !== grid.products.length)
          ctx.addIssue({
            code: 'custom',
            path: ['regions', region],
            message: `${values.length} factors for ${grid.products.length} products`,
          });
        if (grid.source_region_codes[region] === undefined)
          ctx.addIssue({ code: 'custom', path: ['source_region_codes', region], message: 'missing' });
      }
    }),
  );
export type SpendFactorsGrid = z.infer<typeof SpendFactorsGrid>;

/**
 * The rows of a factor grid: one per non-null cell, region by region in key order, products in column order.
 *
 * @example
 * ```ts
 * spendFactorsFromGrid(cedaGrid).factors.find((row) => row.product === '327310' && row.region === 'US')?.kgco2e; // 8.872
 * ```
 */
export function spendFactorsFromGrid(grid: SpendFactorsGrid): SpendFactorsTable {
  const flags = grid.data_quality_flags;
  const factors: SpendFactorsTable['factors'] = [];
  for (const [region, values] of Object.entries(grid.regions)) {
    values.forEach((kgco2e, index) => {
      if (kgco2e === null) return;
      const [product, name] = grid.products[index] as [string, string];
      factors.push({
        product,
        region,
        kgco2e,
        name,
        activity_id: `${grid.activity_id_prefix}-${product.toLowerCase()}`,
        data_quality_flags: flags,
      });
    });
  }
  return {
    dataset: grid.dataset,
    currency: grid.currency,
    factor_year: grid.factor_year,
    price_basis: grid.price_basis,
    gwp: grid.gwp,
    product_classification: grid.product_classification,
    ...(grid.basis_region !== undefined && { basis_region: grid.basis_region }),
    ...(grid.rest_of_world_region !== undefined && { rest_of_world_region: grid.rest_of_world_region }),
    factors,
  };
}

/**
 * Classification codes mapped to the products of a factor table. `mappings[type][code]` lists the products a code
 * covers; `weights[region][product]` (e.g. EXIOBASE total output, million EUR) weights the mean over several.
 * `shares[type]`, where given, holds each product's share of a code: `codes[code][i]` classes of the code map to its
 * i-th product, out of `classes_per_product[product]` classes in the whole classification. The mean is then
 * weighted by share × weight, so a product the code's classes touch only in part counts only in part.
 */
export const ClassificationsTable = z.strictObject({
  dataset: DatasetInfo,
  product_classification: nonEmpty,
  products: z.record(nonEmpty, nonEmpty),
  mappings: z.record(nonEmpty, z.record(nonEmpty, z.array(nonEmpty).check(z.minLength(1)))),
  shares: z.optional(
    z.record(
      nonEmpty,
      z.strictObject({
        /** Classes of the classification that map to each product (the denominators). */
        classes_per_product: z.record(nonEmpty, z.number().check(z.int(), z.positive())),
        /** Per code, the classes of the code that map to each of its products, in `mappings` order. */
        codes: z.record(nonEmpty, z.array(z.number().check(z.int(), z.positive())).check(z.minLength(1))),
      }),
    ),
  ),
  weights: z.record(regionCode, z.record(nonEmpty, nonNegative)),
  /**
   * Types read through another type's mappings (`mcc` through `isic4`): per code, `[target code, description]` or
   * `[target code, description, note]`. Such a code maps to the target's products with the target's shares, and
   * every estimate of it carries a notice naming the target (and the note).
   */
  aliases: z.optional(
    z.record(
      nonEmpty,
      z.strictObject({
        /** The type whose mappings answer, e.g. `isic4`. */
        to: nonEmpty,
        /** What the alias type is, e.g. `ISO 18245 merchant category code`, for the notice. */
        label: nonEmpty,
        /** `[target code, description]` or `[target code, description, note]`. */
        codes: z.record(nonEmpty, z.array(nonEmpty).check(z.minLength(2), z.maxLength(3))),
      }),
    ),
  ),
  /** Weights for every region without its own in `weights` (CEDA: US output, its sectors' structure everywhere). */
  weights_all_regions: z.optional(z.record(nonEmpty, nonNegative)),
  /** What `weights` measure, e.g. `EXIOBASE 3.8.2 total output 2019, million EUR`. */
  weights_description: nonEmpty,
});
export type ClassificationsTable = z.infer<typeof ClassificationsTable>;

/**
 * Default margins as fractions of purchaser's price, per (region, product). `tax_margin` may be absent when the
 * source has no taxes (the BEA margins): that margin then has no default.
 */
export const MarginsTable = z.strictObject({
  dataset: DatasetInfo,
  margins: z.array(
    z.strictObject({
      region: regionCode,
      product: nonEmpty,
      tax_margin: z.optional(z.number()),
      trade_margin: nonNegative,
      transport_margin: nonNegative,
    }),
  ),
});
export type MarginsTable = z.infer<typeof MarginsTable>;

/** Annual inflation in percent: `country[iso2][year]`, optionally `sector[iso2][product][year]`. */
export const InflationTable = z.strictObject({
  dataset: DatasetInfo,
  country: z.record(regionCode, z.record(yearKey, inflationRate)),
  sector: z.optional(z.record(regionCode, z.record(nonEmpty, z.record(yearKey, inflationRate)))),
});
export type InflationTable = z.infer<typeof InflationTable>;

/**
 * Annual average exchange rates: `rates[currency][year]` = units of the currency per 1 USD. `partial_years` marks the
 * rates that average only part of a year, naming the months they cover (the engine says so in a notice).
 */
export const FxTable = z.strictObject({
  dataset: DatasetInfo,
  rates: z.record(currencyCode, z.record(yearKey, fxRate)),
  partial_years: z.optional(z.record(currencyCode, z.record(yearKey, nonEmpty))),
});
export type FxTable = z.infer<typeof FxTable>;
