// Preloaded into the CLI child process by large-file.test.ts: reports the peak resident set size at exit.
process.on('exit', () => {
  process.stderr.write(`\nmaxRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
