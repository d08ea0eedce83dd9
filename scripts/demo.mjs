// `npm run demo`: real estimates from the embedded default datasets, through the built package.
import {
  calculateCpu,
  calculateEmbodied,
  calculateInstance,
  calculateMemory,
  calculateNetworking,
  calculateSpend,
  calculateStorage,
} from '../dist/index.js';
import { defaultDatasets } from '../dist/datasets.js';

const cloudCases = [
  { provider: 'aws', region: 'us_east_1', instance: 'm5.large' },
  { provider: 'azure', region: 'westeurope', instance: 'Standard_D2s_v3' },
  { provider: 'gcp', region: 'europe_west1', instance: 'n2-standard-4' },
];

const format = (kg) => `${kg.toPrecision(6)} kg`;
const rows = [];
for (const { provider, region, instance } of cloudCases) {
  const day = { duration: 24, duration_unit: 'hour' };
  const vm = calculateInstance(provider, { instance, region, ...day }, defaultDatasets);
  rows.push({
    provider,
    region,
    [`VM ${instance} 24 h`]: format(vm.total_co2e),
    'CPU 4 vCPU 24 h': format(calculateCpu(provider, { cpu_count: 4, region, ...day }, defaultDatasets).co2e),
    'Memory 16 GB 24 h': format(
      calculateMemory(provider, { region, data: 16, ...day }, defaultDatasets).co2e,
    ),
    'SSD 1 TB 30 days': format(
      calculateStorage(
        provider,
        { region, storage_type: 'ssd', data: 1, data_unit: 'TB', duration: 30, duration_unit: 'day' },
        defaultDatasets,
      ).co2e,
    ),
    'Network 100 GB': format(calculateNetworking(provider, { region, data: 100 }, defaultDatasets).co2e),
    [`Embodied ${instance} 24 h`]: format(
      calculateEmbodied(provider, { instance, instance_count: 1, ...day }, defaultDatasets).co2e,
    ),
  });
}
console.log('Cloud computing (CCF method; grid: Electricity Maps yearly average 2022; embodied 2021)\n');
for (const row of rows) {
  console.log(`${row.provider.toUpperCase()} ${row.region}`);
  for (const [label, value] of Object.entries(row).slice(2)) console.log(`  ${label.padEnd(34)} ${value}`);
}

const spendCases = [
  {
    label: '1000 EUR retail trade (ISIC 4711), DE, 2023',
    code: '4711',
    region: 'DE',
    year: 2023,
    money: 1000,
    unit: 'eur',
  },
  {
    label: '1000 EUR retail trade (ISIC 4711), FR, 2023',
    code: '4711',
    region: 'FR',
    year: 2023,
    money: 1000,
    unit: 'eur',
  },
  {
    label: '5000 EUR construction (ISIC F), ES, 2021',
    code: 'F',
    region: 'ES',
    year: 2021,
    money: 5000,
    unit: 'eur',
  },
  {
    label: '2000 CNY cereals and oil seeds (ISIC 0111), CN, 2022',
    code: '0111',
    region: 'CN',
    year: 2022,
    money: 2000,
    unit: 'cny',
  },
  {
    label: '1000 USD textiles (ISIC 13), US, 2024: goods',
    code: '13',
    region: 'US',
    year: 2024,
    money: 1000,
    unit: 'usd',
  },
  {
    label: '1000 USD computer programming (ISIC 62), US, 2019',
    code: '62',
    region: 'US',
    year: 2019,
    money: 1000,
    unit: 'usd',
  },
  {
    label: '800 BRL steel (ISIC 2410), BR, 2025',
    code: '2410',
    region: 'BR',
    year: 2025,
    money: 800,
    unit: 'brl',
  },
];
const statedMargins = { tax_margin: 0.19, trade_margin: 0.1, transport_margin: 0.02 };
console.log('\nProcurement spend (EXIOBASE 3, 2019 EUR basic prices, via OEFDB), each case run twice:');
console.log(
  '  default: no margins in the request. US goods get default trade and transport margins from the BEA (2017);',
);
console.log(
  '           elsewhere, and for the US tax margin, a margin is 0 (purchaser price taken as basic price:',
);
console.log('           emissions overstated), and a notice says so.');
console.log(
  '  stated:  the request states tax 0.19, trade 0.10, transport 0.02 (margin_sources: supplied).\n',
);
console.log(`${'case'.padEnd(52)} ${'default'.padEnd(16)} stated`);
for (const { label, code, region, year, money, unit } of spendCases) {
  const request = {
    activity: { classification_type: 'isic4', classification_code: code },
    spend_year: year,
    spend_region: region,
    money,
    money_unit: unit,
  };
  const byDefault = calculateSpend(request, defaultDatasets);
  const stated = calculateSpend({ ...request, ...statedMargins }, defaultDatasets);
  console.log(
    `${label.padEnd(52)} ${format(byDefault.estimate.co2e).padEnd(16)} ${format(stated.estimate.co2e)}`,
  );
  const factor = byDefault.estimate.emission_factor;
  console.log(`    factor ${factor.factor} kg/EUR: ${factor.name} (${factor.source_dataset})`);
  const details = byDefault.calculation_details;
  const sources = Object.entries(details.margin_sources)
    .map(([margin, source]) => `${margin.replace('_margin', '')} ${details[margin]} (${source})`)
    .join(', ');
  const notices = (result) =>
    result.notices.map((notice) => `${notice.severity} ${notice.code}`).join(', ') || 'none';
  console.log(`    default: margins ${sources}; notices: ${notices(byDefault)}`);
  if (details.margin_datasets)
    console.log(`             default margins from ${details.margin_datasets.join(', ')}`);
  console.log(
    `    stated:  margins ${Object.values(stated.calculation_details.margin_sources).join('/')}; notices: ${notices(stated)}`,
  );
}

// The CLI on the committed example files. Each has one bad row on purpose, so the CLI reports it in the row's
// error columns and exits 1; anything else is a failure of the demo.
{
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const outDir = mkdtempSync(join(tmpdir(), 'co2e-demo-'));
  const runs = [
    { command: 'spend', file: 'examples/ledger.csv', bad: 'INV-2023-0021, money typed as 12O0 (letter O)' },
    { command: 'cloud', file: 'examples/cloud-usage.csv', bad: 'legacy-vm, region us_east_3 does not exist' },
  ];
  for (const { command, file, bad } of runs) {
    const out = join(outDir, `${command}-co2e.csv`);
    console.log(`\n$ co2e-engine ${command} ${file} --out ${out}\n`);
    const { status, error } = spawnSync(process.execPath, ['dist/cli.js', command, file, '--out', out], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (status === 1) {
      console.log(`exit code 1, as expected: one row is bad on purpose (${bad}); the others are in ${out}`);
    } else {
      console.error(
        `demo failed: expected exit code 1 from the CLI on ${file}, got ${status}${error ? ` (${error.message})` : ''}`,
      );
      process.exitCode = 1;
    }
  }
}
