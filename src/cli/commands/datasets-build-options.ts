import type { MarginsFormat } from '../../loaders/parse-naio-margins';

/**
 * Options of `co2e-engine datasets build`. In a module of their own because `datasets fetch exiobase`
 * (datasets-fetch.ts) builds through the same function, which datasets.ts passes in, so that neither command file
 * imports the other.
 */
export interface DatasetsBuildOptions {
  exiobase?: string;
  /** An EXIOBASE MR-SUT release with valuation layers (`MRSUT_<year>.zip` or folder), read for margins. */
  exiobaseMargins?: string;
  /** Margins files: plain CSV, or Eurostat naio_10_cp15 as TSV or SDMX-CSV. */
  margins: string[];
  /** The format of every `margins` file; default: each file's, from its header. */
  marginsFormat?: MarginsFormat;
  /** naio_10_cp15: the year to read (default `year`). */
  marginsYear?: number;
  /** naio_10_cp15: the share of OTTM (trade and transport margins combined) that is trade; required for naio files. */
  tradeShare?: number;
  /** naio_10_cp15: rows breaking TS_PP = TS_BP + D21X31 + OTTM refuse the file, or are left out. */
  marginsInconsistent?: 'error' | 'omit';
  out: string;
  year: number;
  version?: string;
  impact: string;
  negative: 'error' | 'omit';
  force: boolean;
}
