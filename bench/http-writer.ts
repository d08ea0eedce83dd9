import { loadavg } from 'node:os';
import { calculateCpuBatch } from '../src/index';
import { defaultDatasets } from '../src/embedded/defaults';
import { batchWriter } from '../src/http/json-writer';
import { median } from './statistics';

/**
 * The byte writer of batch answers in-process (no socket): microseconds to write one cpu batch of 100 in the wire
 * form (CPU time), for the batch bench/http.ts sends (8 CPU counts, one region, repeated) and for a varied one (13 CPU
 * counts, 3 regions, a fresh duration per element), median of interleaved rounds. The results are computed once
 * per round; the writer writes them anew each time. `tsx bench/http-writer.ts [--rounds 15]`.
 */

const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 15;
const REPEATS = 400;

const BENCH = Array.from({ length: 100 }, (_, index) => ({
  cpu_count: (index % 8) + 1,
  region: 'us_east_1',
  duration: 1,
}));
const REGIONS = ['us_east_1', 'eu_west_1', 'ap_southeast_2'];
const varied = (round: number) =>
  Array.from({ length: 100 }, (_, index) => ({
    cpu_count: (index % 13) + 1,
    region: REGIONS[index % 3] as string,
    duration: 1 + ((index * 7919 + round * 104_729) % 9973) / 997,
  }));

/** CPU time of this process in microseconds (a busy machine disturbs it far less than wall time). */
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

function writeMicros(results: readonly unknown[]): number {
  const start = cpuMicros();
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const writer = batchWriter({ wire: true, maxLength: 1e7, count: results.length });
    writer.add(results);
    writer.end();
  }
  return (cpuMicros() - start) / REPEATS;
}

const figures = { bench: [] as number[], varied: [] as number[] };
const load = loadavg()[0]?.toFixed(1);
for (let round = 0; round < ROUNDS + 3; round++) {
  const bench = writeMicros(calculateCpuBatch('aws', BENCH, defaultDatasets));
  const other = writeMicros(calculateCpuBatch('aws', varied(round), defaultDatasets));
  if (round < 3) continue; // warm-up
  figures.bench.push(bench);
  figures.varied.push(other);
}
process.stdout.write(
  `byte writer, one cpu batch of 100, µs of CPU (median of ${ROUNDS} rounds; load ${load} at the start, ${loadavg()[0]?.toFixed(1)} at the end)\n` +
    `the bench's batch: ${median(figures.bench).toFixed(1)}\nvaried batch: ${median(figures.varied).toFixed(1)}\n`,
);
