import type { AnyCase } from '../core/any-case';
import type {
  KnownAwsInstance,
  KnownAwsRegion,
  KnownAzureInstance,
  KnownAzureRegion,
  KnownGcpInstance,
  KnownGcpRegion,
} from '../datasets/known.generated';
import type { CloudProvider } from '../datasets/tables';

/**
 * The types of what cloud requests accept (types only). Regions and instance types are the embedded tables' as
 * generated unions, widened by `string & {}`: editors complete the known ones, and any string still type-checks,
 * since a custom dataset may have others (the calculators check them at run time).
 */

export type * from '../datasets/known.generated';

/**
 * A provider as the calculators accept it: `'aws' | 'azure' | 'gcp'`, any case (`'AWS'`, `'Azure'`). Anything
 * else (`'ibm'`) is a type error, as it is an `unsupported_provider` error at run time.
 *
 * @example
 * ```ts
 * const provider: CloudProviderSpelling = 'azure';
 * ```
 */
export type CloudProviderSpelling = AnyCase<CloudProvider>;

/** Any string, without swallowing the literals beside it in a union (so editors still offer them). */
type AnyString = string & {};

/**
 * A region of provider `P` (any of the three by default): the embedded tables' regions in the provider's, the
 * request and the hosted API's spellings (`'us-east-1' | 'us_east_1'`, `'westeurope' | 'west_europe'`), or any
 * other string (a custom table's region; any case and separators at run time).
 *
 * @example
 * ```ts
 * const region: CloudRegionSpelling<'gcp'> = 'europe_west1';
 * ```
 */
export type CloudRegionSpelling<P extends CloudProviderSpelling = CloudProviderSpelling> =
  | ('aws' extends Lowercase<P> ? KnownAwsRegion : never)
  | ('azure' extends Lowercase<P> ? KnownAzureRegion : never)
  | ('gcp' extends Lowercase<P> ? KnownGcpRegion : never)
  | AnyString;

/**
 * An instance type of provider `P`: the embedded table's (`'t2.micro'`, `'Standard_D2s_v3'`, `'e2-standard-2'`),
 * or any other string.
 *
 * @example
 * ```ts
 * const instance: CloudInstanceSpelling<'aws'> = 't3.micro';
 * ```
 */
export type CloudInstanceSpelling<P extends CloudProviderSpelling = CloudProviderSpelling> =
  | ('aws' extends Lowercase<P> ? KnownAwsInstance : never)
  | ('azure' extends Lowercase<P> ? KnownAzureInstance : never)
  | ('gcp' extends Lowercase<P> ? KnownGcpInstance : never)
  | AnyString;

/** The storage types: solid-state and hard disk. */
export type StorageType = 'ssd' | 'hdd';
/**
 * `storage_type` as requests may write it: `ssd` or `hdd`, any case.
 *
 * @example
 * ```ts
 * const type: StorageTypeSpelling = 'SSD';
 * ```
 */
export type StorageTypeSpelling = AnyCase<StorageType>;

/** `T` with `region` (and `instance`, where it has one) typed for provider `P`, flattened for editors' hovers. */
export type ForProvider<T, P extends CloudProviderSpelling> = {
  [K in keyof T]: K extends 'region'
    ? CloudRegionSpelling<P>
    : K extends 'instance'
      ? CloudInstanceSpelling<P>
      : T[K];
};
