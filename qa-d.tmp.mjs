import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:'); const c = await db.connect();
const r = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${process.argv[2]}')`);
console.log(r.getRowObjects().map(o=>o.column_name+':'+o.column_type).join(' '));
