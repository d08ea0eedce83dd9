import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json';
import { addDatasetsCommand } from './commands/datasets';
import { cliDatasets } from './commands/datasets-flag';
import { addFileCommand, FILE_COMMANDS } from './commands/file';
import { addListCommand } from './commands/list';
import { addReportCommand } from './commands/report';
import { collect, datasetsOption, integer } from './commands/options';
import { serve, type ServeOptions, serveLimitOptions } from './commands/serve';
import { type CliIo, EXIT, UsageError } from './io';

export type { CliIo } from './io';

/**
 * Runs the `co2e-engine` command line with `argv` (without `node` and the script) and returns the exit code: 0
 * success, 1 when a batch file had failed rows, 2 on usage errors, 130 when interrupted.
 *
 * @example
 * ```ts
 * const code = await runCli(['spend', 'ledger.csv', '--out', 'ledger-co2e.csv'], {
 *   stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env,
 * });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('co2e-engine')
    .description('Carbon estimates offline: serve the REST endpoints, or run spend and cloud batch files.')
    .version(packageJson.version)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');

  const serveCommand = program
    .command('serve')
    .description(
      "Serve SPEC.md's REST endpoints (POST /procurement/spend, /compute/{provider}/...) over HTTP.",
    )
    .option('--port <port>', 'port to listen on (0: any free port)', integer('--port', 0, 65535), 8080)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option(
      '--api-key <key>',
      'accepted API key (repeatable; env CO2E_API_KEYS adds comma-separated keys)',
      collect,
      [],
    )
    .option(
      '--cors <origin>',
      "let browser apps on this origin call the server (repeatable; '*': any)",
      collect,
      [],
    )
    .addOption(datasetsOption())
    .action(async (flags: { apiKey: string[]; datasets: string[] } & Omit<ServeOptions, 'apiKeys'>) => {
      const { apiKey, datasets, ...rest } = flags;
      exitCode = await serve({ ...rest, apiKeys: apiKey }, cliDatasets(datasets), io);
    });
  for (const option of serveLimitOptions()) serveCommand.addOption(option);

  for (const spec of FILE_COMMANDS) addFileCommand(program, spec, io, (code) => (exitCode = code));

  addReportCommand(program, io, (code) => (exitCode = code));
  addDatasetsCommand(program, io, (code) => {
    exitCode = code;
  });
  addListCommand(
    program,
    (specs) => cliDatasets(specs),
    io,
    (code) => (exitCode = code),
  );

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
        ? EXIT.ok
        : EXIT.usage;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`co2e-engine: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}
