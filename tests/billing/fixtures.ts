import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/** The billing fixtures (written from the published export schemas; see tests/billing/fixtures/README.md). */
export const FIXTURES = join(import.meta.dirname, 'fixtures');

export function readFixture(name: string): Record<string, string>[] {
  const text = readFileSync(join(FIXTURES, name), 'utf8');
  if (name.endsWith('.jsonl'))
    return text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
  return parse(text, { columns: true }) as Record<string, string>[];
}

/** The resource id each fixture row carries, to name it in tests. */
export const idOf = (row: Record<string, unknown>): string =>
  String(
    row['ResourceId'] ??
      row['lineItem/ResourceId'] ??
      row['identity/LineItemId'] ??
      row['line_item_resource_id'] ??
      row['resource.name'] ??
      '',
  )
    .split('/')
    .pop()!;

export const FIXTURE_FILES = [
  'focus-aws.csv',
  'focus-spec-aws.csv',
  'focus-spec-azure.csv',
  'focus-azure.csv',
  'focus-gcp.csv',
  'focus-oracle.csv',
  'aws-cur.csv',
  'aws-cur-regions.csv',
  'aws-cur2.csv',
  'gcp-export.csv',
  'gcp-export.jsonl',
  'azure-export.csv',
] as const;
