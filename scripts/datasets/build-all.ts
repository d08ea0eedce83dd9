import { buildCcfApp } from './build-ccf-app';
import { buildCloud } from './build-cloud';
import { buildHostedApi2021Instances } from './build-hosted-api-2021-instances';
import { writeHostedApi2021 } from './build-hosted-api-2021';
import { buildSpend } from './build-spend';

/** Regenerates every embedded dataset in `datasets/` (`npm run datasets`). */
await buildCloud();
writeHostedApi2021(); // after buildCloud: names its regions as the default regions table does
buildHostedApi2021Instances(); // after buildCloud: the default instance table with AWS embodied on the hosted basis
buildCcfApp(); // after buildCloud: takes GCP memory from the default instance table
buildSpend();
