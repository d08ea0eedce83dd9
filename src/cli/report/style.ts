/**
 * The report page's styles, inlined in its head: the reader's own fonts, print rules for a clean PDF (A4, no
 * navigation, charts and tables kept whole), a visible focus ring for keyboard readers.
 */
export const REPORT_STYLE = `
:root { --ink: #1d232b; --muted: #5a6270; --line: #d9dde3; --accent: #1f6f5c; --bg: #fff; --band: #f4f6f8; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--bg);
  font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif; }
header, nav, main, footer { max-width: 1280px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 32px 0 12px; padding-top: 12px; border-top: 2px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 8px; }
.meta, .note, figcaption, .sub { color: var(--muted); font-size: 13px; }
code { font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.92em; }
.kpis { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.kpis > div { background: var(--band); border-radius: 6px; padding: 10px 16px; min-width: 180px; }
.kpis dt { color: var(--muted); font-size: 13px; }
.kpis dd { margin: 0; font-size: 24px; font-weight: 600; }
.kpis dd.sub { font-size: 13px; font-weight: 400; }
nav ol { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 8px 0; margin: 0;
  border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); font-size: 14px; }
a { color: var(--accent); }
a:focus-visible, .table-wrap:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; }
.lead { font-size: 16px; }
.pair { display: grid; grid-template-columns: minmax(0, 640px) minmax(0, 1fr); gap: 24px; align-items: start; }
.pair.single { grid-template-columns: minmax(0, 640px); }
figure { margin: 0; }
figure svg { max-width: 100%; height: auto; display: block; }
.table-wrap { max-height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: 6px 8px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { position: sticky; top: 0; background: var(--band); }
tbody th { font-weight: 500; }
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.example { color: var(--muted); font-size: 12px; }
.sources li { margin-bottom: 10px; }
.attribution { color: var(--muted); font-size: 13px; margin-top: 2px; }
footer { color: var(--muted); font-size: 13px; padding-bottom: 32px; }
@media (max-width: 900px) { .pair { grid-template-columns: 1fr; } }
@page { size: A4; margin: 14mm; }
@media print {
  body { font-size: 11pt; }
  nav, .skip { display: none; }
  header, main, footer { max-width: none; padding: 0; }
  .pair { grid-template-columns: 1fr; }
  .table-wrap { max-height: none; overflow: visible; border: none; }
  thead th { position: static; }
  figure, tr, .kpis > div { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;
