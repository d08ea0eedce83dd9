/**
 * The attacking side of bench/blocking.ts, in a process of its own: `attackers` clients sending 10,000-element
 * instance batches (27 MB answers) back to back, and `drip` dripping connections from 127.0.0.2. Run apart, the
 * 27 MB answers they receive and the 1,200 connections they keep are handled by this process's event loop, not by
 * the one timing the ordinary requests, so the ordinary latencies measure the server (and the shared CPU), not
 * the client's own pauses. Prints `ready` once the drippers had 2 s to connect; on end of stdin it stops and
 * prints `{"batches":…,"opened":…}`. `tsx bench/blocking-attackers.ts URL ATTACKERS DRIP`.
 */
import { dripping } from '../tests/http/dripping';
import { ATTACK_BATCH } from './blocking-batch';

const [url = '', attackersText = '0', dripText = '0'] = process.argv.slice(2);
const attackers = Number(attackersText);
const drip = Number(dripText);

let stopped = false;
let batches = 0;
const drippers = drip > 0 ? dripping(Number(new URL(url).port), drip) : undefined;
if (drippers !== undefined) await new Promise((done) => setTimeout(done, 2_000)); // let them connect
process.stdout.write('ready\n');
const attacker = async () => {
  while (!stopped) {
    const response = await fetch(`${url}/compute/aws/instance/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ATTACK_BATCH,
    }).catch(() => undefined);
    await response?.arrayBuffer();
    if (response?.status === 200 && !stopped) batches++;
  }
};
const running = Promise.all(Array.from({ length: attackers }, attacker));
process.stdin.resume();
process.stdin.once('end', () => {
  stopped = true;
  drippers?.stop();
  void running.then(() => {
    process.stdout.write(`${JSON.stringify({ batches, opened: drippers?.opened() ?? 0 })}\n`);
    process.exit(0);
  });
});
