/**
 * `npx tsx bench/japanese-docs.ts [--dir <rust-by-example/ja>] [--json]`
 *
 * Japanese questions asked of the offline planner over real Japanese docs: the Japanese
 * translation of Rust By Example as rustup installs it (`<rustc --print sysroot>/share/doc/rust/
 * html/rust-by-example/ja`, an mdBook site of 201 HTML pages). 19 questions written from its pages
 * in the polite form a reader asks in (`…は何ですか？`), each with a string a right answer holds,
 * and 3 it does not answer. A case counts as right when the answer holds the string, as closest
 * useful when the run abstained and its closest passages hold it. A sanity check of one language
 * on one site, not an eval set; without the docs it prints "skipped".
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { agenticRun } from '../src/agent/run.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';
import { answerOutcome, type Outcome } from './expected-string.ts';
import { rustDocsDir } from './rust-docs.ts';

/** A question and the string a right answer holds (undefined: the docs do not answer it). */
const CASES: Array<[question: string, holds: string | undefined]> = [
  ['Rustでは値はデフォルトでどこに割り当てられますか？', 'スタック'],
  ['Box<T>を作成すると値はどこに割り当てられますか？', 'ヒープ'],
  ['タプルは何を用いて生成しますか？', '括弧'],
  ['モジュール内の要素はデフォルトでどうなっていますか？', 'プライベート'],
  ['モジュールの要素をパブリックにするには何で修飾しますか？', 'pub'],
  ['借用では値そのものの代わりに何を渡しますか？', '参照'],
  ['コンパイラは何を用いて参照が常に有効であることを保証しますか？', '借用チェッカ'],
  ['資源は一度にいくつの所有者を持つことができますか？', '一つ'],
  ['Rustにおけるクロージャとは何ですか？', '捕捉'],
  ['型に対してトレイトの標準的な実装を提供するアトリビュートは何ですか？', 'derive'],
  ['ライブラリを作成するときrustcに渡すオプションは何ですか？', 'crate-type'],
  ['ベクタとはどのような配列ですか？', 'サイズを変更可能'],
  ['HashMapでは値を何で保持しますか？', 'キー'],
  ['列挙型Option<T>にはいくつの値がありますか？', '2つ'],
  ['最もシンプルなエラーハンドリングの仕組みは何ですか？', 'panic'],
  ['structで作成できる構造体には何種類ありますか？', '3種類'],
  ['変数を変更可能にするにはどの構文を使いますか？', 'mut'],
  ['特定の型に紐づいた関数にはどんな形式がありますか？', '関連関数'],
  ['Rustのエコシステムに標準装備されている依存関係の管理ツールは何ですか？', 'cargo'],
  ['Rustでデータベースに接続するにはどのクレートを使いますか？', undefined],
  ['Rustのプログラムをウェブブラウザで動かすための設定は何ですか？', undefined],
  ['Rustの最初の安定版がリリースされたのは何年ですか？', undefined],
];

interface CaseResult {
  question: string;
  outcome: Outcome;
  answer: string;
}

export async function measureJapaneseDocs(dir: string): Promise<CaseResult[]> {
  const index = createSqliteIndex({ path: ':memory:' });
  const results: CaseResult[] = [];
  try {
    await index.ingest((await loadCorpus(dir)).docs);
    for (const [question, holds] of CASES) {
      const { answer } = await agenticRun(question, { model: createOfflineModel(), index });
      const outcome = answerOutcome(answer, holds);
      results.push({ question, outcome, answer: answer.text });
    }
  } finally {
    await index.close();
  }
  return results;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dir: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const dir = values.dir ?? rustDocsDir('rust-by-example/ja');
  if (dir === undefined || !existsSync(dir)) {
    process.stdout.write(`japanese docs: skipped: no Japanese Rust By Example (${dir ?? 'no rustc'}); pass --dir\n`);
    return;
  }
  const results = await measureJapaneseDocs(dir);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    return;
  }
  const count = (outcome: CaseResult['outcome'], answerable: boolean) =>
    results.filter((result, position) => result.outcome === outcome && (CASES[position]![1] !== undefined) === answerable).length;
  process.stdout.write(`| question | outcome | answer |\n|---|---|---|\n${results.map((result) => `| ${result.question} | ${result.outcome} | ${result.answer.slice(0, 80)} |`).join('\n')}\n`);
  process.stdout.write(
    `\nanswerable (${CASES.filter((item) => item[1] !== undefined).length}): right ${count('right', true)}, wrong ${count('wrong', true)}, closest useful ${count('closest useful', true)}, abstained ${count('abstained', true)}; unanswerable (${CASES.filter((item) => item[1] === undefined).length}): abstained ${count('abstained', false)}, answered ${count('wrong', false)}\n`,
  );
}

await main();
