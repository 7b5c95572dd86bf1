import { describe, expect, it } from 'vitest';
import { sampleMindMap } from '../../test/api/study.fake.ts';
import type { MindMapNode } from '../api/types.ts';
import { escapeHtml, nodeLabel, targetOf, toTree, type TreeWords } from './tree.ts';

const words: TreeWords = { course: (n) => `Course (${n})`, pages: (a, b) => `Pages ${a}-${b}` };

describe('the mind map tree', () => {
  it('escapes labels: a document’s markup is shown as text', () => {
    const tree = toTree(sampleMindMap().root, words);
    const dpll = tree.children[1];
    expect(dpll?.content).toBe('<span class="mm-label mm-section">2 &lt;b&gt;DPLL&lt;/b&gt; &amp; backtracking</span><span class="mm-page">p.5</span>');
    expect(escapeHtml(`<img src=x onerror="a('b')">`)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;');
    const el = document.createElement('div');
    el.innerHTML = dpll?.content ?? '';
    expect(el.querySelector('b')).toBeNull();
    expect(el.textContent).toBe('2 <b>DPLL</b> & backtracking' + 'p.5');
  });

  it('says the course and runs of pages in the window’s words, and gives each node its target', () => {
    const run = { label: '', kind: 'pages', doc_id: 'd', file: 'scan.pdf', page: 11, to: 20, children: [] } as MindMapNode;
    const course = { label: '', kind: 'course', doc_id: '', file: '', page: 0, children: [run, run] } as MindMapNode;
    expect(nodeLabel(course, words)).toBe('Course (2)');
    expect(nodeLabel(run, words)).toBe('Pages 11-20');
    const tree = toTree(course, words);
    expect(tree.payload?.target).toBeNull();
    expect(tree.children[0]?.payload?.target).toEqual({ doc_id: 'd', file: 'scan.pdf', page: 11 });
    expect(tree.children[0]?.content).not.toContain('class="mm-page"'); // its label says its pages
    const term = toTree(sampleMindMap().root, words).children[0]?.children[0];
    expect(term?.content).toContain('mm-term');
    expect(term?.payload?.target).toEqual({ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page: 3 });
  });

  it('folds a course’s branches below its documents’ top sections, a document’s below depth 2', () => {
    const section = (children: MindMapNode[] = []) => ({ label: 's', kind: 'section', doc_id: 'd', file: 'f.pdf', page: 1, to: 1, children }) as MindMapNode;
    const doc = { label: 'f.pdf', kind: 'document', doc_id: 'd', file: 'f.pdf', page: 1, to: 1, children: [section([section([section()])])] } as MindMapNode;
    const course = { label: '', kind: 'course', doc_id: '', file: '', page: 0, children: [doc] } as MindMapNode;
    const c = toTree(course, words);
    expect(c.children[0]?.payload?.fold).toBe(0);
    expect(c.children[0]?.children[0]?.payload?.fold).toBe(1); // a top section with subsections
    const d = toTree(doc, words);
    expect(d.children[0]?.payload?.fold).toBe(0);
    expect(d.children[0]?.children[0]?.payload?.fold).toBe(0);
    expect(d.children[0]?.children[0]?.children[0]?.payload?.fold).toBe(0); // a leaf has nothing to fold
  });

  it('finds the node a click landed on, but not its folding circle', () => {
    const tree = toTree(sampleMindMap().root, words);
    const g = document.createElementNS('http://www.w3.org/2000/svg', 'g') as SVGGElement & { __data__?: unknown };
    g.setAttribute('class', 'markmap-node');
    g.__data__ = tree.children[0];
    const label = document.createElement('span');
    const circle = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
    g.append(label, circle);
    document.body.append(g);
    const at = (el: Element) => {
      const e = new MouseEvent('click', { bubbles: true });
      Object.defineProperty(e, 'target', { value: el });
      return targetOf(e);
    };
    expect(at(label)).toEqual({ doc_id: 'a3f1c9', file: 'lecture_sat.pdf', page: 2 });
    expect(at(circle)).toBeNull();
    expect(at(document.body)).toBeNull();
    g.remove();
  });
});
