import { buildCloud } from './build-cloud';
import { buildSpend } from './build-spend';

/** Regenerates every embedded dataset in `datasets/` (`npm run datasets`). */
await buildCloud();
buildSpend();
