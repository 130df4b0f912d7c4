// The test strings, generated the same way on every run (a seeded generator): English,
// Chinese (simplified and traditional), Japanese, code, emoji sequences, numbers, white-space
// runs, random Unicode, and every added token of the tokenizer, alone and inside text.
// Shares no code with AttnScope's core.

export function generator(seed) {
  let s = seed >>> 0;
  const next = () => {  // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick };
}

const english = `the of and to in is was he for it with as his on be at by I had this not are but from or have
an they which one you were her all she there would their we him been has when who will more no if out so said
what up its about into than them can only other new some could time these two may then do first any my now
such like our over man me even most made after also did many before must through back years where much your
way well down should because each just those people Mr how too little state good very make world still own
see men work long get here between both life being under never day same another know while last might us
great old year off come since against go came right used take three tokenizer attention Paris France capital
don't I'll you're we've she'd it's they'll O'Neil HELLO World naïve café résumé coöperate`.split(/\s+/);
const punctuation = [".", ",", "!", "?", ";", ":", "...", " -", "—", "(", ")", "\"", "'", "''"];

const simplified = `的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里
用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十
民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代
内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结
反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思
王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济
车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技
际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突
专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严巴
例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破网热助倒
育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源
食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既衣您宗积余痛检差
富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚概恶块顿`.replace(/\s/g, "");
const traditional = `們這個來說時要會對於經與學關實發點現動當種應機國長開問體見頭進過還麼實際從後時間處裡區觀點認為個讓
進行關於書寫電腦網絡語言標準應該議題歷史傳統藝術環境態度優勢變化專業資訊顯示無線連結價錢買賣鐵路車輛醫療衛生圖書館總統選舉`.replace(/\s/g, "");
const japanese = `これはテストですひらがなカタカナ漢字東京大阪日本語を話しますか私は学生ですコンピューターの注意機構ありがとうございます
今日は良い天気ですね桜が咲いていますラーメンが好きですトークナイザーの検証をしています`.replace(/\s/g, "");
const chinesePunctuation = ["，", "。", "！", "？", "、", "；", "：", "“", "”", "（", "）", "《", "》", " ", ""];
const code = [
  "def f(x):\n    return x * 2\n", "for (int i = 0; i < n; ++i) {\n\tsum += a[i];\n}", "#include <vector>\n",
  "const x = {a: 1, 'b': [2, 3]};", "if x != None and y >= 0x1F:\n        pass", "SELECT * FROM t WHERE id = 42;",
  "  // comment\n  auto p = std::make_unique<T>();", "<div class=\"a\">Hi</div>", "$ ls -la | grep '\\.txt$'",
  "fn main() { println!(\"{}\", 1_000); }", "x+=1;y-=2;z*=3", "```python\nprint('hi')\n```", "a\r\nb\r\n",
];
const emoji = ["👨‍👩‍👧‍👦", "🇨🇳", "🇺🇸", "👍🏽", "❤️", "🧑‍💻", "🏳️‍🌈", "😀", "🤔", "🎉", "👩🏻‍🔬", "✌️", "1️⃣", "🫠"];
const spaces = [" ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "\u3000", "\u00a0", "\u2009", "\u200b", "\u0085", "\ufeff"];

function join(g, n, from, sep) {
  const out = [];
  for (let i = 0; i < n; ++i) out.push(typeof from === "function" ? from() : g.pick(from));
  return out.join(typeof sep === "function" ? "" : sep);
}

function chars(g, alphabet, n) {
  const list = Array.from(alphabet);
  let out = "";
  for (let i = 0; i < n; ++i) out += g.pick(list);
  return out;
}

function englishText(g) {
  let words = join(g, 1 + g.int(14), english, " ");
  if (g.int(3) === 0) words = words[0].toUpperCase() + words.slice(1);
  if (g.int(4) === 0) words = words.toUpperCase();
  return (g.int(4) === 0 ? " " : "") + words + (g.int(2) ? g.pick(punctuation) : "");
}

function chineseText(g, alphabet) {
  let out = "";
  for (let i = 1 + g.int(6); i > 0; --i) out += chars(g, alphabet, 1 + g.int(8)) + g.pick(chinesePunctuation);
  if (g.int(4) === 0) out += String(g.int(2030));
  if (g.int(5) === 0) out = g.pick(english) + out;
  return out;
}

function numberText(g) {
  const forms = [() => String(g.int(10 ** (1 + g.int(12)))), () => (g.next() * 1000).toFixed(g.int(5)),
                 () => g.int(1000) + "," + String(g.int(1000)).padStart(3, "0"), () => "-" + g.int(100000),
                 () => "١٢٣" + g.int(10), () => "½ ² ³ Ⅻ ①", () => "v" + g.int(10) + "." + g.int(20) + "." + g.int(99)];
  return join(g, 1 + g.int(4), () => g.pick(forms)(), " ");
}

function whitespaceText(g) {
  let out = "";
  for (let i = 1 + g.int(5); i > 0; --i) out += join(g, 1 + g.int(4), spaces, "") + (g.int(2) ? g.pick(english) : "");
  return out;
}

function randomCodePoint(g) {
  const ranges = [[0x20, 0x7e], [0xa0, 0x24f], [0x300, 0x36f], [0x370, 0x52f], [0x590, 0x6ff], [0x900, 0x97f],
                  [0xe00, 0xe7f], [0x1100, 0x11ff], [0x3040, 0x30ff], [0x4e00, 0x9fff], [0xac00, 0xd7a3],
                  [0x1f300, 0x1faff], [0x20000, 0x2a6df], [0x0, 0x1f], [0xe000, 0xe0ff], [0x10000, 0x10ffff]];
  const [lo, hi] = g.pick(ranges);
  const cp = lo + g.int(hi - lo + 1);
  return cp >= 0xd800 && cp <= 0xdfff ? "?" : String.fromCodePoint(cp);
}

function randomUnicode(g) {
  let out = "";
  for (let i = 1 + g.int(20); i > 0; --i) out += randomCodePoint(g);
  if (g.int(4) === 0) out += "e\u0301 A\u030a \u1100\u1161\u11a8";  // NFC composes these
  return out;
}

// Every added token alone, and in context with spaces on either side.
function addedTokenTexts(g, added) {
  const out = [];
  for (const token of added) {
    out.push(token);
    if (g.int(4) === 0) out.push(g.pick(english) + token + " " + g.pick(english));
    if (g.int(8) === 0) out.push(" " + token + "\n" + chars(g, simplified, 3));
  }
  return out;
}

export function testStrings(addedTokens, perKind) {
  const g = generator(20261128);
  const kinds = [englishText, (g) => chineseText(g, simplified), (g) => chineseText(g, traditional),
                 (g) => chineseText(g, japanese), (g) => join(g, 1 + g.int(3), code, g.pick(["", "\n", " "])),
                 (g) => join(g, 1 + g.int(6), emoji, g.pick(["", " ", "\u200d"])), numberText, whitespaceText,
                 randomUnicode];
  const out = [];
  for (const kind of kinds)
    for (let i = 0; i < perKind; ++i) out.push(kind(g));
  return out.concat(addedTokenTexts(g, addedTokens));
}
