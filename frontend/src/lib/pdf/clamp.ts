// The part of a selection that lies in a page's text layer. A drag that ends
// in the page's margin, past its last line or outside the viewer leaves a
// range reaching out of the layer (WebKit may even put its end after the
// whole page); the selection menu acts on what of it is in the layer's
// nodes, and only that. A range over several pages' layers keeps the page
// where it starts (the first layer, in document order, that it meets): the
// student begins a drag on the passage they mean.

/**
 * range cut to layer's text: from its first to its last character in the layer's text nodes (not the layer's
 * empty blocks, whose box would place the menu at the page's foot); null when the two do not meet or no text of
 * the layer is in it.
 */
export function clampToLayer(range: Range, layer: Node): Range | null {
  if (!range.intersectsNode(layer)) return null;
  const doc = layer.ownerDocument!;
  const texts: Text[] = [];
  const walk = doc.createTreeWalker(layer, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.nodeValue?.trim() && range.intersectsNode(n)) texts.push(n as Text);
  }
  const first = texts[0];
  const last = texts.at(-1);
  if (!first || !last) return null;
  const out = range.cloneRange();
  if (out.comparePoint(first, 0) === 0) out.setStart(first, 0); // the range starts before the first character
  if (out.comparePoint(last, last.length) === 0) out.setEnd(last, last.length); // or ends after the last
  return out.collapsed || out.toString().trim() === '' ? null : out;
}

/**
 * The range of sel to act on, clamped to the first of layers that it meets (see clampToLayer); null for a
 * collapsed selection or one outside every layer. When the selection reached outside that layer, the
 * document's selection is set to the clamped range (in its direction), so the student sees what is kept.
 */
export function clampSelection(sel: Selection | null, layers: readonly Node[]): Range | null {
  if (!sel || sel.isCollapsed || sel.rangeCount === 0) return null;
  const range = sel.getRangeAt(0);
  for (const layer of layers) {
    const kept = clampToLayer(range, layer);
    if (!kept) continue;
    const same =
      kept.startContainer === range.startContainer &&
      kept.startOffset === range.startOffset &&
      kept.endContainer === range.endContainer &&
      kept.endOffset === range.endOffset;
    if (!same) {
      const backward = sel.anchorNode === range.endContainer && sel.anchorOffset === range.endOffset && !range.collapsed;
      if (backward) sel.setBaseAndExtent(kept.endContainer, kept.endOffset, kept.startContainer, kept.startOffset);
      else sel.setBaseAndExtent(kept.startContainer, kept.startOffset, kept.endContainer, kept.endOffset);
    }
    return kept;
  }
  return null;
}
