import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
const db = await DuckDBInstance.create(':memory:'); const c = await db.connect();
for (const f of process.argv.slice(2)) {
  const base = f;
  const csvCols = fs.readFileSync(base+'.csv','utf8').split('\n')[0];
  const jl = JSON.parse(fs.readFileSync(base+'.jsonl','utf8').split('\n')[0]);
  const r = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${base}.parquet')`);
  const pq = r.getRowObjects().map(o=>o.column_name);
  const jc = Object.keys(jl);
  // naive csv split
  const cc = csvCols.split(',');
  const tail = a => a.slice(-12).join(',');
  const same = (a,b)=>JSON.stringify(a)===JSON.stringify(b);
  console.log(f.split('/').pop(), 'csv=jsonl', same(cc,jc), 'csv=pq', same(cc,pq), cc.length, jc.length, pq.length);
  if (!same(cc,pq)||!same(cc,jc)) { console.log(' csv tail', tail(cc)); console.log(' jl  tail', tail(jc)); console.log(' pq  tail', tail(pq)); }
  const types = r.getRowObjects().filter(o=>o.column_name.startsWith('co2e')).map(o=>o.column_name+':'+o.column_type).join(' ');
  console.log('  ', types);
}
