import { BarChart } from 'echarts/charts';
import { GridComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/**
 * The report's charts: Apache ECharts rendered on the server to static SVG (`ssr: true`, `renderToSVGString`), so
 * the page carries no script and loads nothing. Only the bar chart, the grid and the SVG renderer are bundled.
 */

echarts.use([BarChart, GridComponent, SVGRenderer]);

/** The page's font stack: the reader's own sans-serif, nothing downloaded. */
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";
/** Two colours, dark enough for white text and distinct in greyscale print. */
export const COLOURS = { main: '#1f6f5c', other: '#c1653b', muted: '#8a8f98' } as const;

export interface BarItem {
  label: string;
  value: number;
  /** The value as the page prints it (`13.85 t`). */
  text: string;
  /** Another colour (the part not estimated). */
  other?: boolean;
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A label short enough for the axis; the table beside the chart has it whole. */
const shortLabel = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Horizontal bars, largest first, each labelled with its printed value: the chart of a breakdown.
 *
 * @example
 * ```ts
 * barChartSvg('by country', [{ label: 'DE', value: 13845, text: '13.85 t' }]); // '<svg …>…</svg>'
 * ```
 */
export function barChartSvg(title: string, items: readonly BarItem[], width = 640): string {
  const rows = [...items].reverse();
  const labels = rows.map((item) => shortLabel(item.label, 34));
  const height = Math.max(80, 28 * rows.length + 30);
  // Room for the longest label, from the font's average character width: the renderer has no text metrics of
  // the reader's font, and its own estimate clips long labels.
  const left = 16 + Math.ceil(Math.max(...labels.map((label) => label.length)) * 7.2);
  return chartSvg(title, width, height, {
    grid: { left, right: 88, top: 8, bottom: 8, outerBoundsMode: 'none' },
    xAxis: { type: 'value', show: false, max: 'dataMax' },
    yAxis: {
      type: 'category',
      data: labels,
      axisTick: { show: false },
      axisLine: { lineStyle: { color: COLOURS.muted } },
      axisLabel: { color: '#222', fontSize: 12 },
    },
    series: [barSeries(rows, 20, 'right', 12)],
  });
}

/**
 * Vertical bars in the given order (months): the chart of a series in time.
 */
export function columnChartSvg(title: string, items: readonly BarItem[], width = 640): string {
  return chartSvg(title, width, 260, {
    grid: { left: 8, right: 8, top: 28, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    xAxis: {
      type: 'category',
      data: items.map((item) => item.label),
      axisTick: { show: false },
      axisLabel: { color: '#222', fontSize: 12 },
      axisLine: { lineStyle: { color: COLOURS.muted } },
    },
    yAxis: { type: 'value', show: false },
    series: [barSeries(items, 36, 'top', 11)],
  });
}

/** One bar per item, in the main colour or the other, its printed value at `position`. */
function barSeries(
  items: readonly BarItem[],
  barMaxWidth: number,
  position: 'right' | 'top',
  fontSize: number,
) {
  return {
    type: 'bar',
    // A printed page: no hover styles (each chart's would name the same classes).
    silent: true,
    emphasis: { disabled: true },
    barMaxWidth,
    data: items.map((item) => ({
      value: item.value,
      itemStyle: { color: item.other === true ? COLOURS.other : COLOURS.main },
      label: { show: true, position, formatter: item.text, color: '#222', fontSize },
    })),
  };
}

/** The chart of `option` (grid, axes, series) in the page's font, rendered once to an accessible SVG. */
function chartSvg(title: string, width: number, height: number, option: echarts.EChartsCoreOption): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption({
    animation: false,
    textStyle: { fontFamily: FONT, fontSize: 12, color: '#222' },
    ...option,
  });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return accessible(svg, title);
}

/** The SVG as an image with a name for screen readers (the table beside it has the figures). */
function accessible(svg: string, title: string): string {
  return svg.replace(/^<svg /, `<svg role="img" aria-label="${escapeXml(title)}" focusable="false" `);
}
