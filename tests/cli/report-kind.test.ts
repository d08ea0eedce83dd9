import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../billing/fixtures';
import { cli, tempPath } from './harness';

/**
 * `co2e-engine report OUTPUT --summary SUMMARY`: the summary must be of the same kind of run as the output (spend,
 * cloud or billing), as a report of one with the other's figures describes neither.
 */

const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

const runs: Record<'spend' | 'cloud' | 'billing', { out: string; summary: string }> = {} as never;

beforeAll(async () => {
  const inputs = {
    spend: join(EXAMPLES, 'ledger.csv'),
    cloud: join(EXAMPLES, 'cloud-usage.csv'),
    billing: join(FIXTURES, 'aws-cur.csv'),
  };
  for (const [kind, input] of Object.entries(inputs) as Array<[keyof typeof runs, string]>) {
    const out = tempPath(`${kind}-out.csv`);
    const summary = tempPath(`${kind}-summary.json`);
    const run = await cli([kind, input, '--out', out, '--summary', summary]);
    expect(existsSync(summary), run.stderr).toBe(true);
    runs[kind] = { out, summary };
  }
});

describe('report: a summary of another kind of run than the output', () => {
  it.each([
    ['spend', 'billing'],
    ['billing', 'spend'],
    ['cloud', 'spend'],
    ['spend', 'cloud'],
    ['billing', 'cloud'],
  ] as const)(
    'a %s output with a %s summary is refused (exit 2), no report written',
    async (output, summary) => {
      const html = tempPath('mixed.html');
      const run = await cli(['report', runs[output].out, '--summary', runs[summary].summary, '--out', html]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `--summary ${runs[summary].summary} is the summary of a ${summary} run, but ${runs[output].out} is a ${output} output; give the summary that run wrote.`,
      );
      expect(existsSync(html)).toBe(false);
    },
  );

  it.each(['spend', 'cloud', 'billing'] as const)(
    'a %s output with its own summary is reported',
    async (kind) => {
      const html = tempPath(`${kind}.html`);
      const run = await cli(['report', runs[kind].out, '--summary', runs[kind].summary, '--out', html]);
      expect(run.stderr).toContain(`co2e-engine report: ${html}`);
      expect(run.code).toBe(0);
    },
  );
});
