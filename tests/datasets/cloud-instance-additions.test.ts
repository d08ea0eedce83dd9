/**
 * The rules of scripts/datasets/cloud-instance-additions.ts on small hand-made inputs: each way a type is added,
 * derived or excluded, with the reason it is excluded.
 */
import { describe, expect, it } from 'vitest';
import {
  addAws2026Instances,
  addCcfAppInstances,
  classOf,
  excludeGcp2026,
  familyOf,
  gcp2026Specs,
  InstanceTable,
} from '../../scripts/datasets/cloud-instance-additions';
import type { CloudInstancesTable } from '../../src/index';

type Row = CloudInstancesTable['instances'][number];

const aws = (instance: string, vcpu: number, platform: number, kg: number, memory = vcpu * 4): Row => ({
  provider: 'aws',
  instance,
  vcpu,
  memory_gib: memory,
  platform_vcpu: platform,
  platform_embodied_kgco2e: kg,
});

/** A table with m6g (64 vCPU, 1333.12 kg) and c6g (64, 1155.46): the Teads rows the 2026 rules start from. */
const base = () =>
  new InstanceTable([
    aws('m6g.large', 2, 64, 1333.12),
    aws('m6g.16xlarge', 64, 64, 1333.12),
    aws('c6g.large', 2, 64, 1155.46, 4),
  ]);

const reasons = (table: InstanceTable) =>
  Object.fromEntries(table.excluded.map((e) => [e.instance, e.reason]));

/** aws-instances-latest-2026.csv rows. */
const row2026 = (instance: string, vcpu: number, memory: number, tonnes: string) => ({
  'Instance Type': instance,
  vCPUs: String(vcpu),
  'Memory (GiB)': String(memory),
  'Platform Embedded Emissions (mtCo2eq)': tonnes,
});

describe('families and classes', () => {
  it('name the family and class of each provider’s types', () => {
    expect(familyOf('aws', 'm7g.metal')).toBe('m7g');
    expect(familyOf('aws', 'db.r5.large')).toBe('db.r5');
    expect(familyOf('gcp', 'c2d-standard-112')).toBe('c2d-standard');
    expect(familyOf('azure', 'Standard_D16as_v5')).toBe('D#as_v5');
    expect(familyOf('azure', 'Standard_E16-4s_v3')).toBe('E#-#s_v3');
    expect(classOf('aws', 'm7g.large')).toBe('m');
    expect(classOf('aws', 'db.r5.large')).toBe('db.r');
    expect(classOf('azure', 'Standard_NC24ads_A100_v4')).toBe('NC');
    expect(classOf('gcp', 'n2d-standard-2')).toBe('n2d');
  });
});

describe('InstanceTable.add', () => {
  it('adds a row within its family band and refuses the others, saying why', () => {
    const table = base();
    const add = (row: Row) => table.add({ row, family: familyOf('aws', row.instance), source: 'test' });
    expect(add(aws('m6g.xlarge', 4, 64, 1400))).toBe(true);
    expect(add(aws('m6g.2xlarge', 8, 64, 0))).toBe(false);
    expect(add(aws('m6g.4xlarge', 128, 64, 1333.12))).toBe(false);
    expect(add(aws('m6g.8xlarge', 32, 64, 4000))).toBe(false);
    // A new family is held to its class: m (m6g 20.83 kg per platform vCPU); 100 / 64 is 0.08×.
    expect(add(aws('m9z.large', 2, 64, 100))).toBe(false);
    expect(reasons(table)).toEqual({
      'm6g.2xlarge': 'missing or zero platform_embodied_kgco2e',
      'm6g.4xlarge': 'vCPU 128 > platform vCPU 64',
      'm6g.8xlarge': "embodied 62.50 kg per platform vCPU is 3.00× its family m6g's median 20.83 (band 2.5×)",
      'm9z.large':
        "embodied 1.56 kg per platform vCPU is 0.08× the median of class m's 1 families 20.83 (band 2.5×)",
    });
    expect(table.has('aws', 'M6G.XLARGE')).toBe(true);
  });
});

describe('addCcfAppInstances', () => {
  const app = (over: Record<string, unknown> = {}) => ({
    aws: { ec2_records: [], u_tb1_records: [] },
    azure: { vm_records: [] },
    gcp: { machine_records: [] },
    ...over,
  });

  it('takes AWS types with t × 1000 and the family’s largest size; trims names; refuses misspellings and u-*tb1', () => {
    const table = new InstanceTable([aws('cc2.8xlarge', 32, 32, 1500, 60.5)]);
    const ec2 = (instance_type: string, vcpu: number, tonnes: number | null) => ({
      family: instance_type.split('.')[0],
      instance_type,
      vcpu,
      memory_gb: vcpu * 2,
      platform_embodied_tco2e: tonnes,
      family_largest_vcpu: 96,
    });
    addCcfAppInstances(
      table,
      app({
        aws: {
          ec2_records: [
            ec2('c6i.large\t', 2, 1.3329),
            ec2('c2.8xlarge', 32, 1.5),
            ec2('hpc9.large', 2, null),
          ],
          u_tb1_records: [{ instance_type: 'u-3tb1.56xlarge' }],
        },
      }),
      new Map(),
    );
    expect(table.rows.get(table.key('aws', 'c6i.large'))).toEqual(aws('c6i.large', 2, 96, 1332.9, 4));
    expect(reasons(table)).toEqual({
      'c2.8xlarge': 'not an EC2 type: a misspelling of cc2.8xlarge (same specs), which the table has',
      'hpc9.large': 'missing or zero platform_embodied_kgco2e',
      'u-3tb1.56xlarge':
        'the CCF app reads u-*tb1 embodied figures from the memory position of its tuple (MANIFEST §2b known defect)',
    });
  });

  it('writes Azure sizes as ARM names and takes GCP memory from the 2026 file, or says it has none', () => {
    const table = new InstanceTable([]);
    const machine = (machine_type: string, vcpu: number) => ({
      family: 'c2d-standard',
      machine_type,
      vcpu,
      platform_embodied_tco2e: 1.6991,
      family_largest_vcpu: 112,
    });
    addCcfAppInstances(
      table,
      app({
        azure: {
          vm_records: [
            {
              series: 'D2s – D96s v5',
              vm_size: 'D2s v5',
              vcpu: 2,
              memory_gb: 8,
              platform_embodied_tco2e: 1.5104,
              series_largest_vcpu: 96,
            },
          ],
        },
        gcp: {
          machine_records: [
            machine('c2d-standard-2', 2),
            machine('c2d-standard-4', 4),
            machine('c2d-standard-8', 8),
          ],
        },
      }),
      gcp2026Specs([
        { 'Instance Type': 'c2d-standard-2', 'Instance vCPU': '2', 'Instance Memory': '8' },
        { 'Instance Type': 'c2d-standard-4', 'Instance vCPU': '2', 'Instance Memory': '16' },
      ]),
    );
    expect(table.has('azure', 'Standard_D2s_v5')).toBe(true);
    expect(table.rows.get(table.key('gcp', 'c2d-standard-2'))?.memory_gib).toBe(8);
    expect(reasons(table)).toEqual({
      'c2d-standard-4':
        'no memory figure: the CCF app has none for GCP, and ccf/ccf-coefficients/gcp-instances-latest-2026.csv has vCPU 2, not 4',
      'c2d-standard-8':
        'no memory figure: the CCF app has none for GCP, and ccf/ccf-coefficients/gcp-instances-latest-2026.csv does not list it',
    });
  });
});

describe('addAws2026Instances', () => {
  it('derives a new family from its predecessor and takes the platform from its largest size', () => {
    const table = base();
    addAws2026Instances(table, [
      row2026('m6g.large', 2, 8, '0.88'),
      row2026('m7g.large', 2, 8, '0.88'),
      row2026('m7g.metal', 64, 256, ''),
      row2026('c6g.large', 2, 4, '0.65'),
      row2026('c7g.large', 2, 4, '0.63'),
      row2026('c7g.16xlarge', 64, 128, '0.63'),
    ]);
    expect(table.rows.get(table.key('aws', 'm7g.large'))).toEqual({
      ...aws('m7g.large', 2, 64, 1333.12),
      embodied_method: 'derived from predecessor family',
    });
    expect(table.rows.get(table.key('aws', 'm7g.metal'))?.platform_vcpu).toBe(64);
    // 1155.46 × 0.63 / 0.65 = 1119.9073… → 1119.91
    expect(table.rows.get(table.key('aws', 'c7g.large'))?.platform_embodied_kgco2e).toBe(1119.91);
    expect(table.excluded).toEqual([]);
  });

  it('never derives from a derived family: m8g goes back to m6g', () => {
    const table = base();
    addAws2026Instances(table, [
      row2026('m6g.large', 2, 8, '0.88'),
      row2026('m7g.large', 2, 8, '0.5'),
      row2026('m7g.metal', 64, 256, '0.5'),
      row2026('m8g.large', 2, 8, '1.1'),
      row2026('m8g.metal-24xl', 96, 384, '1.1'),
    ]);
    expect(table.rows.get(table.key('aws', 'm7g.large'))?.platform_embodied_kgco2e).toBe(757.45);
    // From m6g: 1333.12 × 1.1 / 0.88 = 1666.4 (from m7g it would be 757.45 × 1.1 / 0.5 = 1666.39).
    expect(table.rows.get(table.key('aws', 'm8g.large'))?.platform_embodied_kgco2e).toBe(1666.4);
  });

  it('excludes a family without a figure, with disagreeing figures, without a predecessor, or out of band', () => {
    const table = base();
    addAws2026Instances(table, [
      row2026('m6g.large', 2, 8, '0.88'),
      row2026('c6g.large', 2, 4, '0.65'),
      row2026('c8i.large', 2, 4, ''),
      row2026('r7g.large', 2, 16, '1.4'),
      row2026('r7g.xlarge', 4, 32, '1.5'),
      row2026('m7i-flex.large', 2, 8, '1.9'),
      row2026('c8g.large', 2, 4, '0.2'),
      row2026('c8g.metal-48xl', 192, 384, '0.2'),
    ]);
    expect(reasons(table)).toEqual({
      'c8i.large': 'no size of the family has an embodied figure',
      'r7g.large': 'its sizes state different embodied figures (1.4, 1.5 t)',
      'r7g.xlarge': 'its sizes state different embodied figures (1.4, 1.5 t)',
      'm7i-flex.large':
        'no predecessor family (same letters and suffix, lower generation) with figures in both the table and ccf/ccf-coefficients/aws-instances-latest-2026.csv',
      // 1155.46 × 0.2 / 0.65 = 355.53 kg over 192 vCPU = 1.85 kg, 0.10× c6g's 18.05 kg.
      'c8g.large': 'derived embodied per platform vCPU is 0.10× that of predecessor c6g (band 2.5×)',
      'c8g.metal-48xl': 'derived embodied per platform vCPU is 0.10× that of predecessor c6g (band 2.5×)',
    });
  });

  it('holds a derived family to its predecessor, not to the family band at its class level (c8g, issue 22 item 4)', () => {
    // Class c: c6g 1155.46 / 64 = 18.05 kg per platform vCPU, c5 and c4 3000 / 72 = 41.67; median family 41.67.
    const table = new InstanceTable([
      aws('c6g.large', 2, 64, 1155.46, 4),
      aws('c5.large', 2, 72, 3000, 4),
      aws('c4.large', 2, 72, 3000, 4),
    ]);
    addAws2026Instances(table, [
      row2026('c6g.large', 2, 4, '0.65'),
      row2026('c8g.large', 2, 4, '0.79'),
      row2026('c8g.metal-48xl', 192, 384, '0.79'),
    ]);
    // The real figures: 1155.46 × 0.79 / 0.65 = 1404.33 kg over 192 vCPU = 7.31 kg: 0.405× c6g (within 2.5×),
    // 0.18× the class median (refused before: the family band applied at class level).
    expect(reasons(table)).toEqual({});
    expect(table.rows.get(table.key('aws', 'c8g.large'))).toEqual({
      ...aws('c8g.large', 2, 192, 1404.33, 4),
      embodied_method: 'derived from predecessor family',
    });
    expect(table.rows.get(table.key('aws', 'c8g.metal-48xl'))?.platform_embodied_kgco2e).toBe(1404.33);
  });

  it('gives new sizes of a family the table has its most common platform and figure, unless split evenly', () => {
    const table = new InstanceTable([
      aws('m6i.large', 2, 128, 1787.9),
      aws('m6i.xlarge', 4, 128, 1787.9),
      aws('m6i.metal', 128, 128, 1787.9024),
      aws('d9.large', 2, 48, 2000),
      aws('d9.xlarge', 4, 48, 2100),
    ]);
    addAws2026Instances(table, [row2026('m6i.32xlarge', 128, 512, '1.4'), row2026('d9.2xlarge', 8, 32, '2')]);
    expect(table.rows.get(table.key('aws', 'm6i.32xlarge'))).toEqual(aws('m6i.32xlarge', 128, 128, 1787.9));
    expect(reasons(table)).toEqual({
      'd9.2xlarge':
        'no platform vCPU or embodied figure for the family: its rows in the table are split between 2000 and 2100',
    });
  });
});

describe('excludeGcp2026', () => {
  const gcp = (instance: string, kg: string) => ({
    'Instance Type': instance,
    'Platform Embedded Emissions (kgCo2eq)': kg,
  });

  it('lists every type the table lacks, with the spread of the file’s figures against the table', () => {
    const table = new InstanceTable([
      {
        provider: 'gcp',
        instance: 'n1-standard-1',
        vcpu: 1,
        memory_gib: 3.75,
        platform_vcpu: 96,
        platform_embodied_kgco2e: 1000,
      },
      {
        provider: 'gcp',
        instance: 'n2-standard-2',
        vcpu: 2,
        memory_gib: 8,
        platform_vcpu: 128,
        platform_embodied_kgco2e: 2000,
      },
    ]);
    excludeGcp2026(table, [
      gcp('n1-standard-1', '500'),
      gcp('n2-standard-2', '240000'),
      gcp('c3-standard-4', '220000'),
    ]);
    expect(table.excluded).toEqual([
      {
        provider: 'gcp',
        instance: 'c3-standard-4',
        source: 'ccf/ccf-coefficients/gcp-instances-latest-2026.csv',
        reason:
          'its embodied figure (220000 kg) is on no consistent unit: for the 2 types in both files it is 0.50–120× the Teads figure',
      },
    ]);
  });

  it('refuses to judge a file that shares no type with the table', () => {
    expect(() => excludeGcp2026(new InstanceTable([]), [gcp('c3-standard-4', '220000')])).toThrow(
      'no type in common with the table',
    );
  });
});
