import { type Decimal, add, decimal, div, mul, ONE, sub } from '../core/decimal';
import type { InflationProvider } from '../datasets/types';
import { notice, type Notice } from './notices';

const HUNDRED = decimal(100);

export interface PriceChange {
  /** Price level of the spend year over the factor year's (1 when no data at all). */
  level: Decimal;
  /** 1 / level: what spend is multiplied by to bring it to factor-year prices. */
  deflator: Decimal;
  /** level − 1, reported as `inflation_applied`. */
  applied: Decimal;
  /** Compounded over these years (each year's annual rate), in order. */
  years: number[];
  /** Years in the span without any rate, skipped. */
  missingYears: number[];
  /** Whether a sector rate was used for at least one year. */
  sectorRates: boolean;
  notices: Notice[];
}

/**
 * The price level of `spendYear` relative to `factorYear` in a region, compounding annual rates: the product's
 * sector rate where the dataset has one, else the country rate. Spend after the factor year is deflated by it,
 * spend before it inflated by it (`level < 1` then). Years without a rate are skipped and reported.
 */
export function priceChange(
  region: string,
  product: string | undefined,
  spendYear: number,
  factorYear: number,
  inflation: InflationProvider,
  /** The factors' source when they are priced in `region`'s money for every country (CEDA), for a notice. */
  basisSource?: string,
): PriceChange {
  const forward = spendYear >= factorYear;
  const [from, to] = forward ? [factorYear, spendYear] : [spendYear, factorYear];
  let compounded = ONE;
  const years: number[] = [];
  const missingYears: number[] = [];
  let sectorRates = false;
  // The rate of year y moves prices from the end of y−1 to the end of y, so the span is from+1..to.
  for (let year = from + 1; year <= to; year++) {
    const sector = product === undefined ? undefined : inflation.sectorRate(region, product, year);
    const rate = sector ?? inflation.countryRate(region, year);
    if (rate === undefined) {
      missingYears.push(year);
      continue;
    }
    sectorRates ||= sector !== undefined;
    years.push(year);
    compounded = mul(compounded, add(ONE, div(decimal(rate), HUNDRED)));
  }
  // Only one of level and deflator needs a division: the compounded product is exact.
  const level = forward ? compounded : div(ONE, compounded);
  const deflator = forward ? div(ONE, compounded) : compounded;
  const notices: Notice[] = [];
  if (missingYears.length > 0) {
    const hasRegion = inflation.hasRegion(region);
    // Missing deflation leaves later spend too high (overstated); missing inflation leaves earlier spend too low.
    const direction = forward ? 'overstated' : 'understated';
    notices.push(
      notice(
        'partial_inflation_adjustment',
        'warning',
        hasRegion
          ? `Inflation data for ${region} is missing for ${missingYears.join(', ')}, so the adjustment from ${spendYear} to the factor year ${factorYear} is partial; emissions are likely ${direction}.`
          : `${inflation.info.source_dataset} has no inflation data for ${region}, so no inflation adjustment from ${spendYear} to the factor year ${factorYear} was made (years ${missingYears.join(', ')}); emissions are likely ${direction}.`,
      ),
    );
  }
  if (basisSource !== undefined && years.length > 0) {
    notices.push(
      notice(
        'basis_region_price_index',
        'info',
        `Brought from ${spendYear} to ${factorYear} prices with ${region}'s price index (${inflation.info.id}, ${years.join(', ')}): ${basisSource} factors are per ${factorYear} ${region} dollar for every country.`,
      ),
    );
  }
  return { level, deflator, applied: sub(level, ONE), years, missingYears, sectorRates, notices };
}
