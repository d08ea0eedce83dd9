/**
 * Discovery (issue 10): listCapabilities, the metadata routes over real HTTP, and `co2e-engine list`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateCpu, listCapabilities } from '../../src/index';
import { cloudDatasets } from '../../src/embedded/cloud';
import { defaultDatasets } from '../../src/embedded/index';
import { cli } from '../cli/harness';
import { startServer, type TestServer } from '../http/server';

const capabilities = listCapabilities(defaultDatasets);

describe('listCapabilities', () => {
  it('lists the three providers with their full names and every region and instance of the datasets', () => {
    const providers = capabilities.cloud?.providers ?? [];
    expect(providers.map((p) => [p.provider, p.name])).toEqual([
      ['aws', 'Amazon Web Services'],
      ['azure', 'Microsoft Azure'],
      ['gcp', 'Google Cloud Platform'],
    ]);
    for (const p of providers) {
      expect(p.regions).toHaveLength(defaultDatasets.cloudRegions.list(p.provider).length);
      expect(p.instances).toEqual(defaultDatasets.cloudInstances.list(p.provider));
    }
    expect(capabilities.cloud?.default_year).toBe(2022);
    expect(capabilities.cloud?.embodied_years).toEqual([...defaultDatasets.cloudInstances.years]);
  });

  it('gives each region its aliases, location, grid zone and years', () => {
    const region = (provider: string, id: string) =>
      capabilities.cloud?.providers
        .find((p) => p.provider === provider)
        ?.regions.find((r) => r.region === id);
    expect(region('aws', 'us-east-1')).toEqual({
      region: 'us-east-1',
      aliases: ['us_east_1'],
      location: 'US',
      grid_zone: 'US-MIDA-PJM',
      years: [2021, 2022, 2023, 2024, 2025],
    });
    expect(region('gcp', 'europe-west1')?.aliases).toEqual(['europe_west1', 'europe_west_1']);
  });

  it("lists Azure's split form, the hosted API's spelling, among the aliases", () => {
    const azure = capabilities.cloud?.providers.find((p) => p.provider === 'azure');
    const aliases = (id: string) => azure?.regions.find((r) => r.region === id)?.aliases;
    expect(aliases('westeurope')).toEqual(['west_europe']);
    expect(aliases('eastus2')).toEqual(['east_us_2']);
    expect(aliases('germanywestcentral')).toEqual(['germany_west_central']);
    expect(aliases('southeastasia')).toEqual(['southeast_asia']);
    // A one-word name has no other listed spelling.
    expect(aliases('france')).toEqual([]);
  });

  it('every listed alias is accepted and names its region', () => {
    for (const p of capabilities.cloud?.providers ?? []) {
      for (const r of p.regions) {
        const [own, ...others] = [r.region, ...r.aliases].map((spelling) =>
          calculateCpu(p.provider, { cpu_count: 1, region: spelling, duration: 1 }, defaultDatasets),
        );
        for (const estimate of others) expect(estimate).toEqual(own);
        // The factor is named with one of the listed spellings: the hosted API's.
        const named = own?.emission_factor?.activity_id.replace(`cpu-provider_${p.provider}-region_`, '');
        expect([r.region, ...r.aliases]).toContain(named);
      }
    }
  });

  it('lists spend regions, currencies and classification codes with their products and names', () => {
    const spend = capabilities.spend;
    expect(spend?.regions).toContain('DE');
    expect(spend?.currencies).toContain('eur');
    expect(spend?.currencies).toEqual(defaultDatasets.fx.currencies);
    expect(spend?.factor_currency).toBe('eur');
    expect(spend?.factor_year).toBe(2019);
    const isic = spend?.classifications.find((c) => c.type === 'isic4');
    const retail = isic?.codes.find((c) => c.code === '4711');
    expect(retail?.products).toEqual([
      { product: 'p52', name: defaultDatasets.classifications.productName('p52') },
    ]);
    expect(spend?.classifications.map((c) => c.type)).toEqual(defaultDatasets.classifications.types);
  });

  it('lists only the parts the datasets have', () => {
    expect(listCapabilities({})).toEqual({});
    expect(Object.keys(listCapabilities(cloudDatasets))).toEqual(['cloud']);
  });
});

describe('metadata routes over HTTP', () => {
  let server: TestServer;
  let cloudOnly: TestServer;
  beforeAll(async () => {
    server = await startServer({ datasets: defaultDatasets, authorize: (key) => key === 'k' });
    cloudOnly = await startServer({ datasets: cloudDatasets });
  });
  afterAll(async () => {
    await Promise.all([server.close(), cloudOnly.close()]);
  });
  const get = (base: string, path: string, init: RequestInit = {}) =>
    fetch(base + path, { ...init, headers: { authorization: 'Bearer k', ...init.headers } });

  it('GET /compute/metadata and /compute/v1/metadata give the hosted shape per provider', async () => {
    const response = await get(server.url, '/compute/metadata');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.json();
    expect(body.providers.map((p: { provider_id: string }) => p.provider_id)).toEqual([
      'aws',
      'azure',
      'gcp',
    ]);
    const aws = body.providers[0];
    // The hosted shape, then what the datasets leave out and why (issue 11).
    expect(Object.keys(aws)).toEqual([
      'provider_full_name',
      'provider_id',
      'regions',
      'virtual_machine_instances',
      'region_aliases',
      'unsupported_regions',
      'excluded_instances',
    ]);
    expect(aws.provider_full_name).toBe('Amazon Web Services');
    expect(aws.regions).toContain('us_east_1');
    expect(aws.regions).toContain('ap_south_2');
    expect(aws.virtual_machine_instances).toContain('t2.micro');
    expect(aws.virtual_machine_instances).toContain('m7g.large');
    expect(aws.excluded_instances).toContainEqual({
      instance: 'c7i-flex.large',
      source: 'ccf/ccf-coefficients/aws-instances-latest-2026.csv',
      reason: 'no size of the family has an embodied figure',
    });
    expect(body.providers[1].unsupported_regions).toContainEqual({
      region: 'usdodeast',
      reason: 'Azure Government (DoD); the location is not published',
    });
    const v1 = await get(server.url, '/compute/v1/metadata');
    expect(await v1.json()).toEqual(body);
  });

  it("GET /compute/metadata gives each listed region's other spellings, Azure's split form among them", async () => {
    const body = await (await get(server.url, '/compute/metadata')).json();
    const [aws, azure, gcp] = body.providers as Array<{
      regions: string[];
      region_aliases: Record<string, string[]>;
    }>;
    expect(azure?.region_aliases.westeurope).toEqual(['west_europe']);
    expect(azure?.region_aliases.eastus2).toEqual(['east_us_2']);
    expect(aws?.region_aliases.us_east_1).toEqual(['us-east-1']);
    expect(gcp?.region_aliases.europe_west1).toEqual(['europe-west1', 'europe_west_1']);
    // One entry per listed region, and every alias is accepted over HTTP and names the same factor.
    for (const provider of [aws, azure, gcp]) {
      expect(Object.keys(provider?.region_aliases ?? {})).toEqual(provider?.regions);
    }
    const cpu = async (region: string) => {
      const response = await fetch(`${server.url}/compute/azure/cpu`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ cpu_count: 1, region, duration: 1 }),
      });
      expect(response.status).toBe(200);
      return (await response.json()).emission_factor;
    };
    const listed = await cpu('westeurope');
    expect(listed.activity_id).toBe('cpu-provider_azure-region_west_europe');
    expect(await cpu('west_europe')).toEqual(listed);
  });

  it('GET /procurement/metadata lists regions, currencies and codes', async () => {
    const body = await (await get(server.url, '/procurement/metadata')).json();
    expect(body.regions).toContain('DE');
    expect(body.currencies).toContain('usd');
    expect(body.classifications.map((c: { type: string }) => c.type)).toContain('nace2');
  });

  it('needs the API key, takes GET or HEAD (405 Allow: GET, HEAD), and is 404 without the datasets', async () => {
    expect((await fetch(`${server.url}/compute/metadata`)).status).toBe(401);
    const post = await get(server.url, '/compute/metadata', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await post.json()).error_code).toBe('method_not_allowed');
    expect((await fetch(`${cloudOnly.url}/compute/metadata`)).status).toBe(200);
    const missing = await fetch(`${cloudOnly.url}/procurement/metadata`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error_code).toBe('not_found');
  });
});

describe('co2e-engine list', () => {
  it('list regions <provider> prints a table with a header', async () => {
    const { code, stdout } = await cli(['list', 'regions', 'gcp']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^provider\s+region\s+aliases\s+location\s+grid_zone\s+years$/);
    expect(lines).toHaveLength(1 + defaultDatasets.cloudRegions.list('gcp').length);
    expect(stdout).toMatch(/gcp\s+europe-west1\s+europe_west1 europe_west_1\s/);
  });

  it('list regions azure shows the split form (west_europe) as an alias', async () => {
    const { code, stdout } = await cli(['list', 'regions', 'azure', '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ region: string; aliases: string }>;
    expect(rows.find((row) => row.region === 'westeurope')?.aliases).toBe('west_europe');
    expect(rows.find((row) => row.region === 'eastus2')?.aliases).toBe('east_us_2');
  });

  it('list instances <provider> --json prints a JSON array', async () => {
    const { code, stdout } = await cli(['list', 'instances', 'aws', '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout);
    expect(rows).toHaveLength(defaultDatasets.cloudInstances.list('aws').length);
    expect(rows).toContainEqual({ provider: 'aws', instance: 't2.micro' });
  });

  it('list currencies and list codes <type>', async () => {
    const currencies = JSON.parse((await cli(['list', 'currencies', '--json'])).stdout);
    expect(currencies.map((row: { currency: string }) => row.currency)).toEqual(
      defaultDatasets.fx.currencies,
    );
    const codes = await cli(['list', 'codes', 'isic4']);
    expect(codes.code).toBe(0);
    expect(codes.stdout).toMatch(/^isic4\s+4711\s+p52 /m);
  });

  it('an unknown subject or filter is a usage error (exit 2) naming the valid ones', async () => {
    const subject = await cli(['list', 'planets']);
    expect(subject.code).toBe(2);
    expect(subject.stderr).toContain('choose one of regions, instances, currencies, codes');
    const provider = await cli(['list', 'regions', 'ibm']);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toContain('valid: aws, azure, gcp');
  });
});
