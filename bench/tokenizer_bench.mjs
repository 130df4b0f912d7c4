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

// A text of exactly `count` reference tokens, built from words and cut at a token boundary.
function textOf(tokenizer, words, separator, count, seed) {
  const g = generator(seed);
  let text = "";
  while (tokenizer.encode(text, { add_special_tokens: false }).length < count + 64) text += g.pick(words) + separator;
  const ids = tokenizer.encode(text, { add_special_tokens: false }).slice(0, count);
  return tokenizer.decode(ids);
}

function best(fn) {
  let min = Infinity;
  for (let i = 0; i < runs; ++i) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tokenizer-bench-"));
console.log("tokenizer | load ours / JS (ms) | English 4,096: ours / JS (ms) | Chinese 4,096: ours / JS (ms)");
for (const name of names) {
  const folder = path.join(reference, "node_modules", "@lenml", `tokenizer-${name}`, "models");
  const read = (file) => JSON.parse(fs.readFileSync(path.join(folder, file), "utf8"));
  const loadStart = performance.now();
  const tokenizer = TokenizerLoader.fromPreTrained({ tokenizerJSON: read("tokenizer.json"), tokenizerConfig: read("tokenizer_config.json") });
  const jsLoad = performance.now() - loadStart;
  const texts = [textOf(tokenizer, english, " ", 4096, 1), textOf(tokenizer, chinese, "", 4096, 2)];
  const files = texts.map((text, i) => {
    const file = path.join(dir, `${name}-${i}.txt`);
    fs.writeFileSync(file, text);
    return file;
  });
  const js = texts.map((text) => best(() => tokenizer.encode(text, { add_special_tokens: false })));
  const ours = JSON.parse(execFileSync(tool, [folder, String(runs), ...files]).toString());
  const cell = (o, j) => `${o.toFixed(1)} / ${j.toFixed(1)}`;
  console.log(`${name} | ${cell(ours.load_ms, jsLoad)} | ${cell(ours.texts[0].best_ms, js[0])} (${ours.texts[0].tokens} tokens) | ` +
              `${cell(ours.texts[1].best_ms, js[1])} (${ours.texts[1].tokens} tokens)`);
}
fs.rmSync(dir, { recursive: true });
