import { describe, expect, it } from 'vitest';
import { Export } from './export.svelte.ts';

describe('Export', () => {
  it('runs one export at a time, tells where it went, says nothing after a cancelled dialog, and hands a failure over', async () => {
    const e = new Export<'html' | 'md'>();
    let finish!: (path: string) => void;
    const first = e.run('html', () => new Promise<string>((resolve) => (finish = resolve)), () => {});
    expect(e.running).toBe('html');
    let second = false;
    await e.run('md', async () => ((second = true), '/x.md'), () => {});
    expect(second).toBe(false); // refused while the first runs
    finish('/home/ana/vika.html');
    await first;
    expect([e.running, e.path]).toEqual([null, '/home/ana/vika.html']);

    await e.run('md', async () => '', () => {});
    expect(e.path).toBeNull();

    const failures: unknown[] = [];
    await e.run('md', async () => Promise.reject(new Error('disk full')), (err) => failures.push(err));
    expect(failures).toHaveLength(1);
    expect([e.running, e.path]).toEqual([null, null]);
  });
});
