// @ts-nocheck -- `co2e-engine` resolves to dist/*.d.ts, which a fresh clone has not built yet, and `npm test`
// type-checks before any build. The page only wires imports to tests/browser/cases.ts, which is type-checked.
/**
 * The browser page: imports the built package by its own name, as an app would, and exposes the cases to the
 * test driver. Bundled by browser.test.ts with `co2e-engine` resolved through package.json `exports`.
 */
import * as lib from 'co2e-engine';
import { ccfGridDatasets, defaultDatasets, useeioDatasets } from 'co2e-engine/datasets';
import { cloudDatasets } from 'co2e-engine/datasets/cloud';
import { spendDatasets } from 'co2e-engine/datasets/spend';
import { runCases } from './cases';

window.co2eCases = () =>
  runCases(lib, { defaultDatasets, ccfGridDatasets, useeioDatasets, cloudDatasets, spendDatasets });
