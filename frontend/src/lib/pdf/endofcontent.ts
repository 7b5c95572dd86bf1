// What pdf.js's own viewer (TextLayerBuilder) does so that a drag over the
// text layer's gaps selects what a reader means: an empty, unselectable
// "end of content" block after the layer's spans. While a selection is made
// it covers the whole layer (the class "selecting"), so that the pointer over
// a margin or between lines hits it rather than the layer itself, and it is
// moved right after the span the selection's moving end is in. Without it,
// WebKit maps a point in the margin to the layer's first child: a drag from a
// line into the right margin selected from the top of the page down to the
// line (seen under Xvfb, in screenshots-student.sh).

/** The block after layer's spans and the listeners that move it; append() after each draw (it empties the layer). */
export function endOfContent(layer: HTMLElement): { append(): void; destroy(): void } {
  const end = layer.ownerDocument.createElement('div');
  end.className = 'endOfContent';
  const ctrl = new AbortController();
  const { signal } = ctrl;
  const doc = layer.ownerDocument;
  let pointerDown = false;
  let prev: Range | null = null;

  const reset = () => {
    layer.append(end);
    layer.classList.remove('selecting');
    prev = null;
  };

  layer.addEventListener('mousedown', () => layer.classList.add('selecting'), { signal });
  doc.addEventListener('pointerdown', () => (pointerDown = true), { signal });
  doc.addEventListener(
    'pointerup',
    () => {
      pointerDown = false;
      reset();
    },
    { signal },
  );
  doc.defaultView?.addEventListener(
    'blur',
    () => {
      pointerDown = false;
      reset();
    },
    { signal },
  );
  doc.addEventListener('keyup', () => pointerDown || reset(), { signal });
  doc.addEventListener(
    'selectionchange',
    () => {
      const sel = doc.getSelection();
      if (!sel || sel.rangeCount === 0 || !end.isConnected) return reset();
      const range = sel.getRangeAt(0);
      if (!range.intersectsNode(layer)) return reset();
      layer.classList.add('selecting');
      // The end being moved: the start when the range's end is where it was.
      const moveStart =
        prev !== null &&
        (range.compareBoundaryPoints(Range.END_TO_END, prev) === 0 ||
          range.compareBoundaryPoints(Range.START_TO_END, prev) === 0);
      let at: Node | null = moveStart ? range.startContainer : range.endContainer;
      if (at.nodeType === Node.TEXT_NODE) at = at.parentNode;
      if (at instanceof HTMLElement && at.tagName === 'MARK') at = at.parentNode; // a highlighted passage
      if (!moveStart && range.endOffset === 0 && at) {
        // The end sits before a span's first character: the block goes after the span before it.
        do {
          while (at && !at.previousSibling && at !== layer) at = at.parentNode;
          at = at && at !== layer ? at.previousSibling : null;
        } while (at && at.childNodes.length === 0);
      }
      if (at && at !== layer && at !== end && layer.contains(at) && at.parentNode) {
        at.parentNode.insertBefore(end, moveStart ? at : at.nextSibling);
      }
      prev = range.cloneRange();
    },
    { signal },
  );

  return {
    append: () => {
      layer.append(end);
      layer.classList.remove('selecting');
    },
    destroy: () => {
      ctrl.abort();
      end.remove();
    },
  };
}
