import { basename } from 'node:path';
import packageJson from '../../../package.json';
import { inTonnes, massText, roundedText } from '../pipeline/mass-text';
import { readOutputRows } from '../pipeline/read-back';
import type { RenderReport } from '../pipeline/side-files';
import { type BarItem, barChartSvg, columnChartSvg } from './charts';
import {
  billExtras,
  isBillingSummary,
  type ReportItem,
  type ReportModel,
  type ReportSection,
  reportModel,
} from './model';
import { REPORT_STYLE } from './style';

/**
 * `co2e-engine report` and `--report FILE`: one self-contained HTML page of a run (no script, no request: the
 * charts are inline SVG, the styles inline, the fonts the reader's own). Every figure printed from the summary
 * carries `data-field` (its path in the summary JSON) and `data-value` (the summary's number), so a reader, or a
 * test, can check the page against the JSON.
 */

/** Bars a chart shows; its table lists every group up to {@link MAX_TABLE_ROWS}. */
const MAX_BARS = 12;
const MAX_TABLE_ROWS = 100;
const MAX_FACTORS = 40;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A figure of the summary: its printed text, with its path and exact number for checking. */
function figure(path: readonly (string | number)[], value: number | null, text: string): string {
  if (value === null) return `<span>${escapeHtml(text)}</span>`;
  return `<span data-field="${escapeHtml(JSON.stringify(path))}" data-value="${escapeHtml(JSON.stringify(value))}">${escapeHtml(text)}</span>`;
}

const percent = (share: number | null): string =>
  share === null ? 'n/a' : `${roundedText(share * 100, 3)} %`;
const count = (rows: number): string => `${roundedText(rows, 16)}`;

/** A number that is an amount of money or cost, grouped, to the cent at most. */
const amountText = (value: number): string =>
  roundedText(Math.abs(value) >= 1000 ? Math.round(value) : value, 15);

/** Where a section's groups sit in the summary (a bill's months come from its output, not its summary). */
function fieldPath(model: ReportModel, section: ReportSection, label: string, leaf: string): string[] | null {
  if (model.command === 'billing' && section.field === 'by_month') return null;
  return [section.field, label, leaf];
}

function sectionHtml(model: ReportModel, section: ReportSection, tonnes: boolean): string {
  const shown = section.series === true ? section.items : section.items.slice(0, MAX_BARS);
  const bars: BarItem[] = shown.map((item) => ({
    label: item.label,
    value: item.kg,
    text: massText(item.kg, tonnes),
  }));
  const title = `Emissions ${section.title.toLowerCase()}`;
  // One group makes no chart: its table says it all.
  const chart =
    bars.length < 2 ? '' : section.series === true ? columnChartSvg(title, bars) : barChartSvg(title, bars);
  const more =
    section.items.length > shown.length
      ? `<p class="note">The chart shows the ${shown.length} largest of ${section.items.length}; the table lists them all.</p>`
      : '';
  const withNames = section.items.some((item) => item.name !== undefined);
  const rows = section.items.slice(0, MAX_TABLE_ROWS).map((item: ReportItem) => {
    const kgPath = fieldPath(model, section, item.label, 'kg');
    const rowsPath = fieldPath(model, section, item.label, 'rows');
    const share = model.total_kg === 0 ? null : item.kg / model.total_kg;
    return `<tr><th scope="row">${escapeHtml(item.label)}</th>${withNames ? `<td>${escapeHtml(item.name ?? '')}</td>` : ''}<td class="num">${kgPath === null ? escapeHtml(massText(item.kg, tonnes)) : figure(kgPath, item.kg, massText(item.kg, tonnes))}</td><td class="num">${share === null ? '' : escapeHtml(percent(share))}</td><td class="num">${rowsPath === null ? count(item.rows) : figure(rowsPath, item.rows, count(item.rows))}</td></tr>`;
  });
  const rest =
    section.items.length > MAX_TABLE_ROWS
      ? `<p class="note">${section.items.length - MAX_TABLE_ROWS} more groups are in the summary JSON.</p>`
      : '';
  const id = `s-${section.id}`;
  return `<section id="${id}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${escapeHtml(section.title)}</h2>
<div class="pair${chart === '' ? ' single' : ''}">
${chart === '' ? '' : `<figure>${chart}<figcaption>${escapeHtml(title)} (${tonnes ? 't' : 'kg'} CO<sub>2</sub>e).</figcaption>${more}</figure>`}
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-c">
<table><caption id="${id}-c">${escapeHtml(title)}</caption>
<thead><tr><th scope="col">${escapeHtml(section.key)}</th>${withNames ? '<th scope="col">Factor</th>' : ''}<th scope="col" class="num">CO<sub>2</sub>e</th><th scope="col" class="num">Share</th><th scope="col" class="num">Rows</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>${rest}
</div>
</div>
</section>`;
}

function coverageHtml(model: ReportModel): string {
  const { coverage } = model;
  const unit = coverage.unit === 'money' ? 'spend' : coverage.unit === 'cost' ? 'cost' : 'rows';
  const parts: string[] = [];
  const rowsShare = model.rows === 0 ? null : model.estimated_rows / model.rows;
  parts.push(
    `<p class="lead">${figure(['estimated_rows'], model.estimated_rows, count(model.estimated_rows))} of ${figure(['rows'], model.rows, count(model.rows))} rows estimated (${escapeHtml(percent(rowsShare))}); ${figure(['not_estimated_rows'], model.not_estimated_rows, count(model.not_estimated_rows))} not.</p>`,
  );
  if (coverage.amounts.length > 0) {
    // One amount (a bill's cost): estimated and not, side by side. Several (a ledger's currencies, which do not
    // add up): each one's share estimated.
    const single = coverage.amounts.length === 1;
    const bars: BarItem[] = single
      ? coverage.amounts.flatMap((amount) => [
          { label: 'Estimated', value: amount.estimated, text: amountText(amount.estimated) },
          {
            label: 'Not estimated',
            value: amount.total - amount.estimated,
            text: amountText(amount.total - amount.estimated),
            other: true,
          },
        ])
      : coverage.amounts.map((amount) => ({
          label: amount.label,
          value: amount.share ?? 0,
          text: percent(amount.share),
        }));
    const path = (label: string, leaf: string) =>
      coverage.unit === 'cost' ? ['cost', leaf] : ['by_currency', label, leaf];
    const leaves =
      coverage.unit === 'cost'
        ? { total: 'total', estimated: 'estimated', share: 'share_estimated' }
        : { total: 'money', estimated: 'money_estimated', share: 'share_estimated' };
    const rows = coverage.amounts.map(
      (amount) =>
        `<tr><th scope="row">${escapeHtml(amount.label)}</th><td class="num">${figure(path(amount.label, leaves.total), amount.total, amountText(amount.total))}</td><td class="num">${figure(path(amount.label, leaves.estimated), amount.estimated, amountText(amount.estimated))}</td><td class="num">${figure(path(amount.label, leaves.share), amount.share, percent(amount.share))}</td></tr>`,
    );
    parts.push(`<div class="pair">
<figure>${barChartSvg(`Share of ${unit} estimated`, bars)}<figcaption>${single ? `The ${unit} estimated and not` : `The share of ${unit} estimated in each currency, as given`}.</figcaption></figure>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="coverage-c">
<table><caption id="coverage-c">Share of ${unit} estimated</caption>
<thead><tr><th scope="col">${coverage.unit === 'money' ? 'Currency' : 'Amount'}</th><th scope="col" class="num">Total</th><th scope="col" class="num">Estimated</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</div>
</div>`);
  }
  if (coverage.not_estimated.length > 0) {
    const byAmount = coverage.not_estimated.every((entry) => entry.amount !== undefined);
    const bars: BarItem[] = coverage.not_estimated.slice(0, MAX_BARS).map((entry) => ({
      label: entry.reason,
      value: byAmount ? (entry.amount ?? 0) : entry.rows,
      text: byAmount
        ? amountText(entry.amount ?? 0)
        : `${count(entry.rows)} ${entry.rows === 1 ? 'row' : 'rows'}`,
      other: true,
    }));
    const rows = coverage.not_estimated.map((entry, index) => {
      const rowsPath =
        coverage.unit === 'cost' ? ['not_estimated', index, 'rows'] : ['by_error_code', entry.reason, 'rows'];
      return `<tr><th scope="row"><code>${escapeHtml(entry.reason)}</code></th><td class="num">${figure(rowsPath, entry.rows, count(entry.rows))}</td>${byAmount ? `<td class="num">${figure(['not_estimated', index, 'cost'], entry.amount ?? 0, amountText(entry.amount ?? 0))}</td>` : ''}${entry.example === undefined ? '' : `<td class="example">${escapeHtml(entry.example)}</td>`}</tr>`;
    });
    const hasExample = coverage.not_estimated.some((entry) => entry.example !== undefined);
    parts.push(`<h3 id="why">What was not estimated, and why</h3>
<div class="pair">
<figure>${barChartSvg('Not estimated, by reason', bars)}<figcaption>Rows not estimated, by reason${byAmount ? `, by ${unit}` : ''}.</figcaption></figure>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="why-c">
<table><caption id="why-c">Not estimated, by reason</caption>
<thead><tr><th scope="col">Reason</th><th scope="col" class="num">Rows</th>${byAmount ? `<th scope="col" class="num">${unit === 'cost' ? 'Cost' : 'Amount'}</th>` : ''}${hasExample ? '<th scope="col">First example</th>' : ''}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</div>
</div>`);
  } else {
    parts.push('<p>Every row was estimated.</p>');
  }
  return `<section id="coverage" aria-labelledby="coverage-h">
<h2 id="coverage-h">Coverage</h2>
${parts.join('\n')}
</section>`;
}

function factorsHtml(model: ReportModel, tonnes: boolean): string {
  if (model.factors.length === 0) return '';
  const billing = model.command === 'billing';
  const rows = model.factors.slice(0, MAX_FACTORS).map((factor, index) => {
    const kg = billing
      ? escapeHtml(massText(factor.kg, tonnes))
      : figure(['factors', index, 'kg'], factor.kg, massText(factor.kg, tonnes));
    const cells = billing
      ? `<td>${escapeHtml(factor.name)}</td>`
      : `<td>${escapeHtml(factor.name)}</td><td>${escapeHtml(factor.source)}</td><td>${escapeHtml(factor.region)}</td><td>${escapeHtml(factor.year)}</td>`;
    return `<tr><th scope="row"><code>${escapeHtml(factor.id.replace(/([0-9a-f]{8})[0-9a-f]{24}/g, '$1…'))}</code></th>${cells}<td class="num">${kg}</td><td class="num">${count(factor.rows)}</td></tr>`;
  });
  const head = billing
    ? '<th scope="col">Calculator</th>'
    : '<th scope="col">Name</th><th scope="col">Source</th><th scope="col">Region</th><th scope="col">Year</th>';
  const more =
    model.factors.length > MAX_FACTORS
      ? `<p class="note">The ${MAX_FACTORS} factors with the most emissions of ${model.factors.length}; every row names its factor in the output.</p>`
      : '';
  return `<section id="factors" aria-labelledby="factors-h">
<h2 id="factors-h">Factors used</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="factors-c">
<table><caption id="factors-c">Factors used, most emissions first (ids shortened; whole in the output)</caption>
<thead><tr><th scope="col">Factor id</th>${head}<th scope="col" class="num">CO<sub>2</sub>e</th><th scope="col" class="num">Rows</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>${more}
</div>
</section>`;
}

function sourcesHtml(model: ReportModel): string {
  if (model.sources.length === 0) return '';
  const items = model.sources.map(
    (
      info,
    ) => `<li><p><strong>${escapeHtml(info.source)}</strong>: ${escapeHtml(info.source_dataset)}. Version ${escapeHtml(info.version)}; licence ${escapeHtml(info.licence)}.</p>
<p class="attribution">${escapeHtml(info.attribution)}</p></li>`,
  );
  return `<section id="sources" aria-labelledby="sources-h">
<h2 id="sources-h">Data sources, licences and attribution</h2>
<p>The tables the calculations read, in their own words.</p>
<ul class="sources">${items.join('\n')}</ul>
</section>`;
}

/** How each calculator works, in a paragraph a reader can check against the factor and source tables. */
const METHOD: Readonly<Record<ReportModel['command'], string[]>> = {
  spend: [
    'Spend-based, environmentally extended input-output method. Each row’s amount is converted to the factor table’s currency at the exchange rate of the spend year, brought to the factor year’s prices by the inflation of its country (where the year differs), and reduced from purchaser to basic prices by the tax, trade and transport margins (as given, else the table’s default for the product). The result, in the factor’s currency, is multiplied by the kg CO2e per unit of the product the classification code maps to, in the country’s region (a code that maps to several products takes their output-weighted mean). Each row’s output names its factor, the rate, the margins and the inflation applied.',
  ],
  cloud: [
    'Cloud Carbon Footprint (CCF) method. Energy is the usage times the provider’s coefficient: compute by vCPU-hours at watts between the idle and the full-load figure by average utilisation, memory by GB-hours, storage by TB-hours (SSD or HDD, times its replication), networking by GB transferred; times the data centre’s power usage effectiveness (PUE). Operational emissions are that energy times the grid intensity of the region (kg CO2e per kWh, of the year). Embodied emissions are the server’s manufacturing emissions, shared by the instance’s part of the server and of its lifetime.',
  ],
  billing: [
    'Each line of the bill is read as usage (compute hours, storage GB-months, data transferred, memory) by its service and usage type, and estimated with the Cloud Carbon Footprint calculators for its provider and region: energy is the usage times the provider’s coefficient and PUE, emissions are that energy times the region’s grid intensity, plus the embodied share for compute. Lines whose usage has no CCF coefficient are not estimated, and say why; with --unknown cost-ratio they are estimated from the kg per cost of the estimated lines of their category, labelled as such. Coverage is the share of the bill’s cost (effective cost where the export has it) on estimated lines.',
  ],
};

/**
 * The report page of a model.
 *
 * @example
 * ```ts
 * const html = reportHtml(reportModel(summary, 'out.csv', sources));
 * ```
 */
export function reportHtml(model: ReportModel): string {
  return stableClassNames(pageHtml(model));
}

/**
 * The SVG renderer names each chart's classes by a counter of the process (`zr12-cls-3`): renamed in order of
 * appearance, so the same run gives the same page however many were rendered before it.
 */
function stableClassNames(html: string): string {
  const names = new Map<string, string>();
  return html.replace(/\bzr\d+-cls-\d+\b/g, (name) => {
    let stable = names.get(name);
    if (stable === undefined) {
      stable = `chart-style-${names.size}`;
      names.set(name, stable);
    }
    return stable;
  });
}

function pageHtml(model: ReportModel): string {
  const tonnes = inTonnes(model.total_kg);
  const kpis = [
    `<div><dt>Total emissions</dt><dd>${figure(['total_kg'], model.total_kg, massText(model.total_kg, tonnes))}</dd><dd class="sub">${escapeHtml(massText(model.total_kg, !tonnes))} CO<sub>2</sub>e</dd></div>`,
    `<div><dt>Rows estimated</dt><dd>${figure(['estimated_rows'], model.estimated_rows, count(model.estimated_rows))}</dd><dd class="sub">of ${figure(['rows'], model.rows, count(model.rows))}</dd></div>`,
  ];
  if (model.total_kwh !== null)
    kpis.push(
      `<div><dt>Electricity</dt><dd>${figure(['total_kwh'], model.total_kwh, `${roundedText(model.total_kwh)} kWh`)}</dd><dd class="sub">of the rows that state it</dd></div>`,
    );
  const share = model.coverage.amounts.length === 1 ? model.coverage.amounts[0] : undefined;
  if (share !== undefined)
    kpis.push(
      `<div><dt>Share of ${model.coverage.unit === 'cost' ? 'cost' : 'spend'} estimated</dt><dd>${figure(model.coverage.unit === 'cost' ? ['cost', 'share_estimated'] : ['by_currency', share.label, 'share_estimated'], share.share, percent(share.share))}</dd><dd class="sub">${escapeHtml(share.label)}</dd></div>`,
    );
  const sections = model.sections.map((section) => sectionHtml(model, section, tonnes));
  const contents = [
    ['coverage', 'Coverage'],
    ...model.sections.map((section) => [`s-${section.id}`, section.title]),
    ...(model.factors.length > 0 ? [['factors', 'Factors used']] : []),
    ...(model.sources.length > 0 ? [['sources', 'Sources and licences']] : []),
    ['method', 'Method'],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="co2e-engine ${escapeHtml(packageJson.version)}">
<title>${escapeHtml(model.title)}: ${escapeHtml(model.output)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the report</a>
<header>
<h1>${escapeHtml(model.title)}</h1>
<p class="meta">Of <code>${escapeHtml(model.output)}</code> (co2e-engine ${escapeHtml(model.command)}, version ${escapeHtml(packageJson.version)}). Figures to four significant digits; the exact sums are in the summary JSON.</p>
<dl class="kpis">${kpis.join('\n')}</dl>
</header>
<nav aria-label="Contents"><ol>${contents.map(([id, title]) => `<li><a href="#${id}">${escapeHtml(title!)}</a></li>`).join('')}</ol></nav>
<main id="main">
${coverageHtml(model)}
${sections.join('\n')}
${factorsHtml(model, tonnes)}
${sourcesHtml(model)}
<section id="method" aria-labelledby="method-h">
<h2 id="method-h">Method</h2>
${METHOD[model.command].map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
</section>
</main>
<footer><p>Made offline by co2e-engine from the output file and its summary; nothing on this page was fetched.</p></footer>
</body>
</html>
`;
}

/**
 * The report of a finished run, for `--report` and `co2e-engine report`.
 *
 * @example
 * ```ts
 * const html = await renderReport({ command: 'spend', summary, out: 'out.csv', sources: [] });
 * ```
 */
export const renderReport: RenderReport = async ({ summary, out, sources }) => {
  const parsed = summary as Record<string, unknown>;
  const extras = isBillingSummary(parsed) ? await billExtras(readOutputRows(out)) : undefined;
  return reportHtml(reportModel(parsed, basename(out), sources, extras));
};
