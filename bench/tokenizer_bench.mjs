// Tokenizing a 4,096-token English and a 4,096-token Chinese text with each genuine tokenizer.json
// (Qwen3, Llama 3, Llama 2, Gemma 3): AttnScope's time against transformers.js's (the reference
// in tests/reference/tokenizers) in the same run, and each file's load time.
//   node bench/tokenizer_bench.mjs BUILD/bench/attnscope_tokenizer_bench [RUNS]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const reference = path.join(here, "..", "tests", "reference", "tokenizers");
const { TokenizerLoader } = await import(path.join(reference, "node_modules/@lenml/tokenizers/dist/main.mjs"));
const { generator } = await import(path.join(reference, "strings.mjs"));
const [tool, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const names = ["qwen3", "llama3", "llama2", "gemma3"];

const english = "The capital of France is Paris , and the attention of every head looks back at the words it has seen . ".split(" ");
const chinese = Array.from("注意力机制让模型在处理每个词时关注句子中的其他词老师在课堂上用投影仪展示每一层每一个头的注意力权重学生们拿着计算器验算");

// A text of exactly `count` reference tokens, built from words and cut at a token boundary. The
// words are added in doubling batches and the text encoded once per batch: re-encoding after every
// word made the builder quadratic (minutes for Llama 2's and Gemma 3's files).
function textOf(tokenizer, words, separator, count, seed) {
  const g = generator(seed);
  let text = "";
  for (let batch = 256; tokenizer.encode(text, { add_special_tokens: false }).length < count + 64; batch *= 2)
    for (let i = 0; i < batch; ++i) text += g.pick(words) + separator;
  const ids = tokenizer.encode(text, { add_special_tokens: false }).slice(0, count);
  return tokenizer.decode(ids);
}

// The first run (a fresh tokenizer: its cache cold) and the best of `runs` (warm).
function timed(fn) {
  let first = 0, min = Infinity, result;
  for (let i = 0; i < runs; ++i) {
    const start = performance.now();
    result = fn();
    const ms = performance.now() - start;
    if (i === 0) first = ms;
    min = Math.min(min, ms);
  }
  return { first, best: min, tokens: result.length };
}

const machine = () => `${os.cpus()[0].model}, ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`;
console.log(`machine: ${machine()}; node ${process.version}; best of ${runs}`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tokenizer-bench-"));
console.log("tokenizer | load ours / JS (ms) | English: tokens ours / JS, first ours / JS, best ours / JS (ms) | Chinese: the same");
for (const name of names) {
  const folder = path.join(reference, "node_modules", "@lenml", `tokenizer-${name}`, "models");
  const read = (file) => JSON.parse(fs.readFileSync(path.join(folder, file), "utf8"));
  const load = () => TokenizerLoader.fromPreTrained({ tokenizerJSON: read("tokenizer.json"), tokenizerConfig: read("tokenizer_config.json") });
  const builder = load();  // builds the texts; a fresh one is timed, its cache cold as ours
  const texts = [textOf(builder, english, " ", 4096, 1), textOf(builder, chinese, "", 4096, 2)];
  const loadStart = performance.now();
  const tokenizer = load();  // reading and parsing the file included, as ours
  const jsLoad = performance.now() - loadStart;
  const files = texts.map((text, i) => {
    const file = path.join(dir, `${name}-${i}.txt`);
    fs.writeFileSync(file, text);
    return file;
  });
  const js = texts.map((text) => timed(() => tokenizer.encode(text, { add_special_tokens: false })));
  const ours = JSON.parse(execFileSync(tool, [folder, String(runs), ...files]).toString());
  const pair = (o, j, digits = 1) => `${o.toFixed(digits)} / ${j.toFixed(digits)}`;
  const text = (o, j) => `${o.tokens} / ${j.tokens}, ${pair(o.first_ms, j.first)}, ${pair(o.best_ms, j.best)}`;
  console.log(`${name} | ${pair(ours.load_ms, jsLoad, 0)} | ${text(ours.texts[0], js[0])} | ${text(ours.texts[1], js[1])}`);
}
console.log(`after: ${machine()}`);
fs.rmSync(dir, { recursive: true });
