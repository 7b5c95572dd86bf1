// Golden token ids for the tiny tokenizer.json, from npm @huggingface/tokenizers
// (pure JavaScript, independent of the Go tokenizer). Run by gen.sh:
//   node ids.mjs DIR   reads DIR/tokenizer.json, writes DIR/ids_golden.json
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";

const dir = process.argv[2];
const json = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
const tok = new Tokenizer(json, { do_lower_case: true, model_max_length: 512 });

// max_len is the truncation length the Go tests use (small on purpose).
const maxLen = 12;
const single = [
  "The cat sat on the mat.",
  "A cat is sitting on a rug!",
  "Café élèves: enzyme kinetics",
  "  photosynthesis   light\tenergy  ",
  "PROTEIN folding, cellular respiration?",
  "unknown xyzzy words",
  "deep neural network learning model does work on the cat sat on the mat water boil",
  "Ünknown ÇAFÉ",
  "neuralnetwork",
];
const pairs = [
  ["what is photosynthesis?", "photosynthesis turns light into energy."],
  ["what is photosynthesis?", "the cat sat on the mat."],
  ["how does dna replication work", "dna replication: the cell copies dna, a protein folding model"],
  ["does water boil at 100 degrees celsius? a deep neural network", "water does boil at 100 degrees"],
];
const out = { max_len: maxLen, single: [], pair: [] };
for (const text of single) {
  const e = tok.encode(text);
  out.single.push({ text, ids: e.ids });
}
for (const [query, passage] of pairs) {
  const e = tok.encode(query, { text_pair: passage, return_token_type_ids: true });
  out.pair.push({ query, passage, ids: e.ids, type_ids: e.token_type_ids });
}
writeFileSync(join(dir, "ids_golden.json"), JSON.stringify(out, null, 1) + "\n");
