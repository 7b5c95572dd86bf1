// Bar charts on a canvas, with Chart.js registered piecemeal (only what bars
// need, so the rest is tree-shaken). Chart.js 4 sizes its canvas through the
// element's style properties (CSSOM), which the strict style-src 'self'
// Content-Security-Policy allows; it inserts no <style> element.
//
// Canvas cannot read CSS variables: colours are looked up in app.css's tokens
// when a chart is drawn, and again by recolor() when the theme changes.

import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface BarSeries {
  label: string;
  data: number[];
  /** A colour token of app.css, e.g. "--accent". */
  color: string;
}

export interface BarSpec {
  labels: string[];
  series: BarSeries[];
  stacked: boolean;
  /** Title of the value axis. */
  yTitle: string;
  /** Fixed top of the value axis (100 for percentages). */
  yMax?: number;
  /** Formats a value in tooltips and ticks. */
  format: (value: number) => string;
  /** Bars run left to right, labels on the left (for long labels such as model names). */
  horizontal?: boolean;
}

export interface BarChart {
  update(spec: BarSpec): void;
  /** Re-reads the colour tokens (after a light/dark switch). */
  recolor(): void;
  destroy(): void;
}

function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888888';
}

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The Chart.js configuration of spec (exported for tests). */
export function barConfig(spec: BarSpec): ChartConfiguration<'bar', number[], string> {
  const text = token('--text-muted');
  const grid = token('--border');
  return {
    type: 'bar',
    data: {
      labels: spec.labels,
      datasets: spec.series.map((s) => ({
        label: s.label,
        data: s.data,
        backgroundColor: token(s.color),
        borderWidth: 0,
        maxBarThickness: 36,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: reducedMotion() ? false : { duration: 250 },
      plugins: {
        legend: { display: spec.series.length > 1, labels: { color: text, boxWidth: 12 } },
        tooltip: {
          callbacks: {
            label: (item) =>
              `${item.dataset.label}: ${spec.format((spec.horizontal ? item.parsed.x : item.parsed.y) ?? 0)}`,
          },
        },
      },
      indexAxis: spec.horizontal ? 'y' : 'x',
      scales: {
        [spec.horizontal ? 'y' : 'x']: { stacked: spec.stacked, ticks: { color: text }, grid: { display: false } },
        [spec.horizontal ? 'x' : 'y']: {
          stacked: spec.stacked,
          beginAtZero: true,
          max: spec.yMax,
          title: { display: true, text: spec.yTitle, color: text },
          ticks: { color: text, precision: 0, callback: (value: number | string) => spec.format(Number(value)) },
          grid: { color: grid },
        },
      },
    },
  };
}

/** Draws spec on canvas; null when the canvas has no 2D context (e.g. jsdom). */
export function barChart(canvas: HTMLCanvasElement, spec: BarSpec): BarChart | null {
  if (!canvas.getContext('2d')) return null;
  let current = spec;
  const chart = new Chart(canvas, barConfig(spec));
  return {
    update(next) {
      current = next;
      const config = barConfig(next);
      chart.data = config.data;
      chart.options = config.options ?? {};
      chart.update();
    },
    recolor() {
      this.update(current);
    },
    destroy() {
      chart.destroy();
    },
  };
}
