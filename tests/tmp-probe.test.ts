import { it } from 'vitest';
import { defaultDatasets } from '../src/datasets/index';
import { calculateCpu, calculateInstance, calculateMemory, calculateStorage, calculateEmbodied, calculateSpend, calculateNetworking } from '../src/index';
it('x', () => {
  const out: string[] = [];
  const t = (name: string, f: () => any) => { try { const r = f(); out.push(name + ' ' + (r.co2e ?? r.estimate?.co2e ?? r.total_co2e ?? JSON.stringify(r).slice(0,80))); } catch (e) { out.push(name + ' ERR ' + String(e).slice(0,90)); } };
  for (const d of [1e-30, 1e-35, 1e-38, 1e-42, 1e-45]) {
    t('spend '+d, () => calculateSpend({ activity: { classification_type: 'isic4', classification_code: '4711' }, spend_year: 2024, spend_region: 'US', money: d, money_unit: 'jpy' } as any, defaultDatasets));
    t('inst '+d, () => calculateInstance('aws', { instance: 't3.micro', region: 'us_east_1', duration: d, duration_unit: 'ms' } as any, defaultDatasets));
    t('emb '+d, () => calculateEmbodied('aws', { instance: 't3.micro', instance_count: 1, duration: d, duration_unit: 'ms' } as any, defaultDatasets));
    t('cpu '+d, () => calculateCpu('aws', { cpu_count: 1, region: 'us_east_1', duration: d, duration_unit: 'ms', average_vcpu_utilization: 0.3 } as any, defaultDatasets));
    t('mem '+d, () => calculateMemory('aws', { data: d, data_unit: 'KB', region: 'us_east_1', duration: d, duration_unit: 'ms' } as any, defaultDatasets));
    t('sto '+d, () => calculateStorage('aws', { data: d, data_unit: 'KB', storage_type: 'hdd', region: 'us_east_1', duration: 1, duration_unit: 'ms' } as any, defaultDatasets));
    t('net '+d, () => calculateNetworking('aws', { data: d, data_unit: 'KB', region: 'us_east_1' } as any, defaultDatasets));
  }
  console.log(out.join('\n'));
});
