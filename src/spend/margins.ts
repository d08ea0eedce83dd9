import {
  type Decimal,
  add,
  compare,
  decimal,
  div,
  mul,
  ONE,
  sub,
  sum,
  toNumber,
  ZERO,
} from '../core/decimal';
import type { SpendDatasets } from '../datasets/types';
import type { SelectedFactor } from './classification';
import { notice, type Notice } from './notices';
import type { ParsedSpendRequest } from './spend.schema';

const MARGINS = ['tax_margin', 'trade_margin', 'transport_margin'] as const;
export type MarginName = (typeof MARGINS)[number];

export interface AppliedMargins {
  values: Record<MarginName, Decimal>;
  /** Where each margin came from. */
  origins: Record<MarginName, 'supplied' | 'default' | 'none'>;
  /** The margins datasets the `default` margins came from (`id@version`, sorted); empty when none was used. */
  datasets: string[];
  notices: Notice[];
  /** 1 − the three margins: the basic price's share of the purchaser's price. */
  basicShare: Decimal;
}

/**
 * The margins between purchaser's and basic price: supplied ones as given, missing ones from the dataset's
 * defaults for (region, product) (weighted like the factor over several products). Where no default exists the
 * margin is 0, with a notice. Factors at purchaser's price need no margins: missing ones are 0 then.
 *
 * The defaults are computed once per factor selection and margins dataset ({@link marginDefaults}), and a request
 * that supplies no margin gets that selection's shared result: read it, never change it.
 */
export function applyMargins(
  request: Pick<ParsedSpendRequest, MarginName>,
  selected: Pick<SelectedFactor, 'shares' | 'weights' | 'region'>,
  datasets: SpendDatasets,
): AppliedMargins {
  const defaults = marginDefaults(selected, datasets);
  if (MARGINS.every((margin) => request[margin] === undefined)) {
    defaults.unsupplied ??= marginsWith({}, selected, defaults, datasets);
    return defaults.unsupplied;
  }
  return marginsWith(request, selected, defaults, datasets);
}

/** A selection's default margins under one margins dataset: the same for every request of that selection. */
interface MarginDefaults {
  /** The margins and spend factors datasets they were computed from. */
  readonly margins: SpendDatasets['margins'];
  readonly spendFactors: SpendDatasets['spendFactors'];
  /** Each margin's default, undefined where a product has none. */
  readonly values: Record<MarginName, Decimal | undefined>;
  /** The margins datasets the defaults come from (`id@version`, sorted). */
  readonly datasets: string[];
  /** The margins of a request that supplies none, made on first use. */
  unsupplied?: AppliedMargins;
}

/** Default margins per selection (held weakly: a selection evicted from its cache takes its defaults with it). */
const defaultsBySelection = new WeakMap<object, MarginDefaults>();

function marginDefaults(
  selected: Pick<SelectedFactor, 'shares' | 'weights' | 'region'>,
  datasets: SpendDatasets,
): MarginDefaults {
  const cached = defaultsBySelection.get(selected);
  if (cached?.margins === datasets.margins && cached.spendFactors === datasets.spendFactors) return cached;
  // Factors at purchaser's price take no default margins.
  const purchaserBasis = datasets.spendFactors.priceBasis === 'purchaser';
  const values = {} as Record<MarginName, Decimal | undefined>;
  const region = marginsRegion(selected, datasets);
  for (const margin of MARGINS) {
    const exact = purchaserBasis ? undefined : defaultMargin(margin, region, selected, datasets);
    // The default as the response reports it (a number), so re-sending the reported margins gives the same
    // result: a weighted default has more digits than a number holds (24 of 6,019 cases moved, issue 39).
    values[margin] = exact === undefined ? undefined : decimal(toNumber(exact));
  }
  const defaults: MarginDefaults = {
    margins: datasets.margins,
    spendFactors: datasets.spendFactors,
    values,
    datasets: purchaserBasis ? [] : marginDatasets(region, selected, datasets),
  };
  defaultsBySelection.set(selected, defaults);
  return defaults;
}

function marginsWith(
  request: Partial<Pick<ParsedSpendRequest, MarginName>>,
  selected: Pick<SelectedFactor, 'shares' | 'region'>,
  defaults: MarginDefaults,
  datasets: SpendDatasets,
): AppliedMargins {
  const { shares } = selected;
  const region = marginsRegion(selected, datasets);
  const values = {} as Record<MarginName, Decimal>;
  const origins = {} as Record<MarginName, 'supplied' | 'default' | 'none'>;
  const notices: Notice[] = [];
  const purchaserBasis = datasets.spendFactors.priceBasis === 'purchaser';
  const missingDefaults: MarginName[] = [];
  for (const margin of MARGINS) {
    const supplied = request[margin];
    if (supplied !== undefined) {
      values[margin] = decimal(supplied);
      origins[margin] = 'supplied';
    } else if (purchaserBasis) {
      values[margin] = ZERO;
      origins[margin] = 'none';
    } else {
      const fromDefaults = defaults.values[margin];
      values[margin] = fromDefaults ?? ZERO;
      origins[margin] = fromDefaults === undefined ? 'none' : 'default';
      if (fromDefaults === undefined) missingDefaults.push(margin);
    }
  }
  const suppliedMargins = MARGINS.filter((margin) => origins[margin] === 'supplied');
  if (purchaserBasis && suppliedMargins.some((margin) => compare(values[margin], ZERO) !== 0)) {
    notices.push(
      notice(
        'margins_on_purchaser_price_factors',
        'warning',
        `${suppliedMargins.join(', ')} were supplied and stripped, but ${datasets.spendFactors.info.source_dataset} factors are per unit of purchaser's price, which already includes margins; emissions are likely understated. Omit the margins for these factors.`,
      ),
    );
  }
  if (purchaserBasis && MARGINS.some((margin) => origins[margin] === 'none')) {
    notices.push(
      notice(
        'purchaser_price_factors',
        'info',
        `${datasets.spendFactors.info.source_dataset} factors are per unit of purchaser's price, so margins not supplied are 0.`,
      ),
    );
  }
  if (missingDefaults.length > 0) {
    // A record that gives the other margins but not this one: its source has no such margin (BEA has no taxes).
    const withRecords = shares.every((share) => datasets.margins.get(region, share.product));
    const why = withRecords ? ' (its source has none)' : '';
    notices.push(
      notice(
        'default_margins_unavailable',
        'warning',
        `The margins dataset (${datasets.margins.info.id}) has no default ${missingDefaults.join(', ')}${why} for ${region} and ${shares.map((share) => share.product).join(', ')}, so 0 was used; the basic price, and so the emissions, are likely overstated. Supply the margins to correct this.`,
      ),
    );
  }
  const usedDefaults = MARGINS.some((margin) => origins[margin] === 'default');
  const basis = datasets.spendFactors.basisRegion;
  if (usedDefaults && basis !== undefined) {
    const used = MARGINS.filter((margin) => origins[margin] === 'default');
    notices.push(
      notice(
        'basis_region_margins',
        'info',
        `${used.join(', ')} not supplied ${used.length === 1 ? 'is' : 'are'} ${basis}'s default for the sector (${datasets.margins.info.id}): ${datasets.spendFactors.info.source} converts purchaser to producer price with ${basis} margins for every country.`,
      ),
    );
  }
  return {
    values,
    origins,
    datasets: usedDefaults ? defaults.datasets : [],
    basicShare: sub(ONE, sum([values.tax_margin, values.trade_margin, values.transport_margin])),
    notices,
  };
}

/** The region whose default margins apply: the factors' basis region (CEDA: `US`) where set, else the factor's. */
const marginsRegion = (selected: Pick<SelectedFactor, 'region'>, datasets: SpendDatasets): string =>
  datasets.spendFactors.basisRegion ?? selected.region;

/** `id@version` of each dataset whose record gave the default margins of the factor's products, sorted. */
function marginDatasets(
  region: string,
  { shares }: Pick<SelectedFactor, 'shares'>,
  datasets: SpendDatasets,
): string[] {
  const { margins } = datasets;
  const named = shares.map((share) => {
    const info = margins.recordDataset?.(region, share.product) ?? margins.info;
    return `${info.id}@${info.version}`;
  });
  return [...new Set(named)].sort();
}

/** The default margin over the factor's products, weighted like the factor; undefined if any product lacks one. */
function defaultMargin(
  margin: MarginName,
  region: string,
  { shares, weights }: Pick<SelectedFactor, 'shares' | 'weights'>,
  datasets: SpendDatasets,
): Decimal | undefined {
  const numbers = shares.map((share) => datasets.margins.get(region, share.product)?.[margin]);
  if (numbers.some((value) => value === undefined)) return undefined;
  const values = numbers.map((value) => decimal(value as number));
  if (values.length === 1) return values[0];
  if (weights === null) return div(sum(values), decimal(values.length));
  let weighted = ZERO;
  values.forEach((value, index) => {
    weighted = add(weighted, mul(value, weights[index] as Decimal));
  });
  return div(weighted, sum(weights));
}
