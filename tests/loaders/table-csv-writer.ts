/**
 * Writes tables in the CSV formats of docs/guides/custom-datasets.md, independently of the parser, so that a round
 * trip (table → CSV → parseTableCsv) checks the formats as documented. Returns the CSV and the meta.
 */
import { stringify } from 'csv-stringify/sync';
import type { TableKind, TableOf } from '../../src/loaders/index';

const csv = (header: string[], rows: unknown[][]) => stringify([header, ...rows]);

export function toCsv<K extends TableKind>(
  kind: K,
  table: TableOf<K>,
): { text: string; meta: Record<string, unknown> } {
  const any = table as Record<string, unknown>;
  switch (kind) {
    case 'spendFactors': {
      const { factors, ...meta } = table as TableOf<'spendFactors'>;
      const header = [
        'product',
        'region',
        'kgco2e',
        'name',
        'activity_id',
        'data_quality_flags',
        'kgco2e_ar4',
        'kgco2e_ar5',
        'kgco2e_ar6',
      ];
      const rows = factors.map((f) => [
        f.product,
        f.region,
        f.kgco2e,
        f.name,
        f.activity_id,
        f.data_quality_flags.join('|'),
        f.kgco2e_alt?.ar4 ?? '',
        f.kgco2e_alt?.ar5 ?? '',
        f.kgco2e_alt?.ar6 ?? '',
      ]);
      return { text: csv(header, rows), meta };
    }
    case 'margins': {
      const { margins, ...meta } = table as TableOf<'margins'>;
      const header = ['region', 'product', 'tax_margin', 'trade_margin', 'transport_margin'];
      return {
        text: csv(
          header,
          margins.map((m) => [m.region, m.product, m.tax_margin, m.trade_margin, m.transport_margin]),
        ),
        meta,
      };
    }
    case 'inflation': {
      const { country, sector, ...meta } = table as TableOf<'inflation'>;
      const rows: unknown[][] = [];
      for (const [region, years] of Object.entries(country))
        for (const [year, rate] of Object.entries(years)) rows.push([region, year, rate, '']);
      for (const [region, products] of Object.entries(sector ?? {}))
        for (const [product, years] of Object.entries(products))
          for (const [year, rate] of Object.entries(years)) rows.push([region, year, rate, product]);
      return { text: csv(['region', 'year', 'rate', 'product'], rows), meta };
    }
    case 'fx': {
      const { rates, ...meta } = table as TableOf<'fx'>;
      const rows = Object.entries(rates).flatMap(([currency, years]) =>
        Object.entries(years).map(([year, rate]) => [currency, year, rate]),
      );
      return { text: csv(['currency', 'year', 'rate'], rows), meta };
    }
    case 'cloudCoefficients': {
      const { providers, ...meta } = table as TableOf<'cloudCoefficients'>;
      const fields = [
        'min_watts',
        'max_watts',
        'pue',
        'memory_kwh_per_gb_hour',
        'ssd_wh_per_tb_hour',
        'hdd_wh_per_tb_hour',
        'networking_kwh_per_gb',
        'server_lifetime_hours',
      ] as const;
      const rows = Object.entries(providers).map(([provider, c]) => [
        provider,
        ...fields.map((field) => c?.[field]),
        Object.entries(c?.pue_by_region ?? {})
          .map(([region, pue]) => `${region}=${pue}`)
          .join('|'),
        Object.entries(c?.gpu_watts ?? {})
          .map(([model, w]) => `${model}=${w.min_watts}/${w.max_watts}`)
          .join('|'),
      ]);
      return { text: csv(['provider', ...fields, 'pue_by_region', 'gpu_watts'], rows), meta };
    }
    case 'cloudRegions': {
      const { regions, ...meta } = table as TableOf<'cloudRegions'>;
      const rows = regions.flatMap((r) =>
        Object.entries(r.grid_factors).map(([year, factor]) => [
          r.provider,
          r.region,
          r.location,
          r.grid_zone,
          year,
          factor,
          r.grid_sources[year],
          r.hosted_spelling ?? '',
        ]),
      );
      return {
        text: csv(
          [
            'provider',
            'region',
            'location',
            'grid_zone',
            'year',
            'grid_factor',
            'grid_source',
            'hosted_spelling',
          ],
          rows,
        ),
        meta,
      };
    }
    case 'cloudInstances': {
      const { instances, ...meta } = table as TableOf<'cloudInstances'>;
      const header = [
        'provider',
        'instance',
        'vcpu',
        'memory_gib',
        'platform_vcpu',
        'platform_embodied_kgco2e',
        'gpu_count',
        'gpu_model',
        'charged_memory_gb',
        'embodied_method',
      ];
      return {
        text: csv(
          header,
          instances.map((i) => [
            i.provider,
            i.instance,
            i.vcpu,
            i.memory_gib,
            i.platform_vcpu,
            i.platform_embodied_kgco2e,
            i.gpu_count ?? '',
            i.gpu_model ?? '',
            i.charged_memory_gb ?? '',
            i.embodied_method ?? '',
          ]),
        ),
        meta,
      };
    }
    case 'classifications': {
      const { mappings, ...meta } = table as TableOf<'classifications'>;
      const rows = Object.entries(mappings).flatMap(([type, codes]) =>
        Object.entries(codes).flatMap(([code, products]) => products.map((product) => [type, code, product])),
      );
      return { text: csv(['type', 'code', 'product'], rows), meta };
    }
    default:
      throw new Error(`no writer for ${String(kind)} ${Object.keys(any).length}`);
  }
}
