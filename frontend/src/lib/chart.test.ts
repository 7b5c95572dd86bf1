import { describe, expect, it } from 'vitest';
import { barChart, barConfig, type BarSpec } from './chart.ts';

const spec: BarSpec = {
  labels: ['#1', '#2'],
  series: [
    { label: 'Search', data: [40, 60], color: '--accent' },
    { label: 'Generation', data: [1000, 0], color: '--danger' },
  ],
  stacked: true,
  yTitle: 'milliseconds',
  yMax: 2000,
  format: (v) => `${v} ms`,
};

describe('bar chart configuration', () => {
  it('draws one dataset per series on stacked scales, coloured from the theme tokens', () => {
    document.documentElement.style.setProperty('--accent', '#2f62d0');
    const config = barConfig(spec);
    expect(config.data.labels).toEqual(['#1', '#2']);
    expect(config.data.datasets.map((d) => [d.label, d.data, d.backgroundColor])).toEqual([
      ['Search', [40, 60], '#2f62d0'],
      ['Generation', [1000, 0], '#888888'],
    ]);
    const scales = config.options?.scales as Record<string, { stacked?: boolean; max?: number }>;
    expect(scales.x?.stacked).toBe(true);
    expect(scales.y).toMatchObject({ stacked: true, max: 2000 });
    expect(config.options?.plugins?.legend?.display).toBe(true);
  });

  it('puts the values on the x axis for horizontal bars', () => {
    const config = barConfig({ ...spec, stacked: false, yMax: undefined, horizontal: true });
    expect(config.options?.indexAxis).toBe('y');
    const scales = config.options?.scales as Record<string, { title?: { text?: string }; beginAtZero?: boolean }>;
    expect(scales.x).toMatchObject({ beginAtZero: true, title: { text: 'milliseconds' } });
    expect(scales.y?.title).toBeUndefined();
  });

  it('draws nothing where there is no 2D context', () => {
    const canvas = document.createElement('canvas');
    canvas.getContext = (() => null) as typeof canvas.getContext;
    expect(barChart(canvas, spec)).toBeNull();
  });
});
