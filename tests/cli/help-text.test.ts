import { describe, expect, it } from 'vitest';
import { cli } from './harness';

/** Each file command's --help names what the command reads (checked against what it really reads). */
describe('file command help', () => {
  it('cloud --help names replication_factor, which cloud rows take for storage and memory', async () => {
    const { stdout } = await cli(['cloud', '--help']);
    expect(stdout.replace(/\s+/g, ' ')).toContain('replication_factor');
  });

  it.each(['spend', 'cloud', 'billing'])(
    '%s --help names gzipped CSV and JSON Lines input',
    async (command) => {
      const { stdout } = await cli([command, '--help']);
      const text = stdout.replace(/\s+/g, ' ');
      expect(text).toContain('.csv.gz');
      expect(text).toContain('.jsonl.gz');
    },
  );
});
