// Preloaded into the measured CLI process by bench/cli.ts: its peak RSS and CPU time (all threads) at exit.
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(
    `\nbench-usage ${JSON.stringify({ maxRssKb: usage.maxRSS, cpuMicros: usage.userCPUTime + usage.systemCPUTime })}\n`,
  );
});
