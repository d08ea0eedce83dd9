import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partialPaths } from '../../src/cli/pipeline/output-file';
import { FIXTURES } from '../billing/fixtures';
import { cli, tempFile, tempPath } from './harness';
import { runCliProcess } from './process';

/**
 * Issue 39 item 1: every file a run writes besides its rows (`--summary`, `--report`) keeps `--out`'s rules: never
 * an input, never the output or a file kept beside it, no silent overwrite, refused before any work starts, and
 * written atomically. One table: each rule for each file option of each file command.
 */

const LEDGER =
  'invoice_id,classification_type,classification_code,spend_year,spend_region,money,money_unit\nA1,isic4,62,2023,GB,1000,gbp\n';
const USAGE =
  'resource,calculator,provider,region,cpu_count,average_vcpu_utilization,duration,duration_unit\nweb,cpu,aws,us_east_1,4,0.5,10,hour\n';
const BILL = readFileSync(join(FIXTURES, 'aws-cur.csv'), 'utf8');

const COMMANDS = [
  { command: 'spend', input: LEDGER },
  { command: 'cloud', input: USAGE },
  { command: 'billing', input: BILL },
] as const;
const OPTIONS = ['--summary', '--report'] as const;

interface Setup {
  input: string;
  out: string;
  /** The side file's path; the rule's arguments after the command, input, --out and --force. */
  side: string;
  extra?: string[];
}

/** Each rule: how the side file is named, and the message it gets. */
const RULES: Array<{ rule: string; message: RegExp; setup: (input: string, out: string) => Setup }> = [
  {
    rule: 'is the input file',
    message: /is the input file/,
    setup: (input, out) => ({ input, out, side: input }),
  },
  {
    rule: 'is the input through a symlink',
    message: /is the input file/,
    setup: (input, out) => {
      const link = tempPath('link-to-input.csv');
      symlinkSync(input, link);
      return { input, out, side: link };
    },
  },
  {
    rule: 'is the input through a hard link',
    message: /is the input file/,
    setup: (input, out) => {
      const link = tempPath('hard-link.csv');
      linkSync(input, link);
      return { input, out, side: link };
    },
  },
  {
    rule: 'is --out (another spelling of the same name)',
    message: /is the --out file/,
    setup: (input, out) => ({ input, out, side: join(dirname(out), '.', basename(out)) }),
  },
  {
    rule: "is --out's partial file",
    message: /kept beside/,
    setup: (input, out) => ({ input, out, side: partialPaths(out).partial }),
  },
  {
    rule: "is --out's lock",
    message: /kept beside/,
    setup: (input, out) => ({ input, out, side: partialPaths(out).lock }),
  },
  {
    rule: "is --out's resume state",
    message: /kept beside/,
    setup: (input, out) => ({ input, out, side: partialPaths(out).state }),
  },
  {
    rule: 'is a directory',
    message: /is not a regular file/,
    setup: (input, out) => {
      const directory = tempPath('a-directory');
      mkdirSync(directory);
      return { input, out, side: directory };
    },
  },
];

describe.each(COMMANDS)('$command: side files are guarded', ({ command, input: content }) => {
  describe.each(OPTIONS)('%s', (option) => {
    it.each(RULES)(
      'refused when it $rule, even with --force, before any work',
      async ({ message, setup }) => {
        const input = tempFile(`${command}-in.csv`, content);
        const out = tempFile(`${command}-out.csv`, 'previous output\n');
        const { side } = setup(input, out);
        const before = existsSync(side) && !side.endsWith('a-directory') ? readFileSync(side) : undefined;
        const run = await cli([command, input, '--out', out, '--force', option, side]);
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(run.stderr.length).toBeLessThan(400);
        // Nothing was done: the input and the earlier output are as they were, and no partial was started.
        expect(readFileSync(input, 'utf8')).toBe(content);
        expect(readFileSync(out, 'utf8')).toBe('previous output\n');
        expect(existsSync(partialPaths(out).partial)).toBe(false);
        if (before !== undefined) expect(readFileSync(side)).toEqual(before);
      },
    );

    it('an existing file is kept without --force (refused before --out is written), replaced with it', async () => {
      const input = tempFile(`${command}-in.csv`, content);
      const out = tempPath(`${command}-out.csv`);
      const side = tempFile(`${command}-side`, 'keep me\n');
      const refused = await cli([command, input, '--out', out, option, side]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${option} ${side} exists; use --force to replace it.`);
      expect(readFileSync(side, 'utf8')).toBe('keep me\n');
      expect(existsSync(out)).toBe(false);
      const forced = await cli([command, input, '--out', out, option, side, '--force']);
      expect(forced.code).toBe(0);
      expect(readFileSync(side, 'utf8')).not.toBe('keep me\n');
      // Atomic: written beside and renamed; nothing is left over.
      expect(readdirSync(dirname(side)).filter((name) => name.includes(basename(side) + '.co2e'))).toEqual(
        [],
      );
    });

    it('needs --out (stdout cannot be read back)', async () => {
      const input = tempFile(`${command}-in.csv`, content);
      for (const out of [[], ['--out', '-']]) {
        const run = await cli([command, input, ...out, option, tempPath('side')]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`${option} needs --out`);
      }
    });
  });

  it('--summary and --report cannot be the same file', async () => {
    const input = tempFile(`${command}-in.csv`, content);
    const side = tempPath('both');
    const run = await cli([command, input, '--out', tempPath('o.csv'), '--summary', side, '--report', side]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is also --summary');
    expect(existsSync(side)).toBe(false);
  });
});

describe('the reproductions of issue 39', () => {
  it('`billing in.csv --out out.csv --summary in.csv` keeps the bill (with --force too)', async () => {
    for (const force of [[], ['--force']]) {
      const input = tempFile('in.csv', BILL);
      const out = tempPath('out.csv');
      const run = await cli(['billing', input, '--out', out, '--summary', input, ...force]);
      expect(run.code).toBe(2);
      expect(readFileSync(input, 'utf8')).toBe(BILL);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('`--summary out.csv` does not replace the estimates', async () => {
    const input = tempFile('in.csv', BILL);
    const out = tempPath('out.csv');
    expect((await cli(['billing', input, '--out', out])).code).toBe(0);
    const estimates = readFileSync(out, 'utf8');
    const run = await cli(['billing', input, '--out', out, '--force', '--summary', out]);
    expect(run.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe(estimates);
  });

  it('stdin redirected from the summary file (`spend - --out o --summary f < f`), in a real process', async () => {
    const input = tempFile('stdin.csv', LEDGER);
    const fd = openSync(input, 'r');
    try {
      const run = await runCliProcess(
        ['spend', '-', '--out', tempPath('o.csv'), '--summary', input, '--force'],
        fd,
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('is the input file');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(input, 'utf8')).toBe(LEDGER);
  });
});
