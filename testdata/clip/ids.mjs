// Golden token ids for the tiny CLIP tokenizer.json, from npm
// @huggingface/tokenizers (pure JavaScript, independent of the Go
// tokenizer). Run by gen.sh:
//   node ids.mjs DIR   reads DIR/tokenizer.json, writes DIR/ids_golden.json
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";

const dir = process.argv[2];
const json = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
const tok = new Tokenizer(json, {});

const single = [
  "a photo of a cat",
  "A  PHOTO of the Cat's chart!",
  "error rate: 12.5%",
  "Diagram\tof the\nnetwork   curve",
  "Café naïve ÉLÈVES",
  "plotting bars, plotting charts",
  "the bar chart of the error rate",
  "x²+y² = 1 → ∞ ; 日本語",
  "It's what we've done, they'll say; I'm sure you'd agree",
  "   ",
];
const out = { single: [] };
for (const text of single) {
  out.single.push({ text, ids: tok.encode(text).ids });
}
writeFileSync(join(dir, "ids_golden.json"), JSON.stringify(out, null, 1) + "\n");
