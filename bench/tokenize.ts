/**
 * `npx tsx bench/tokenize.ts [--json] [--seconds 2] [--sections 100000]`
 *
 * Speed of the FTS5-exact tokenizer (src/index/analysis/fts5-tokens.ts), both variants (`unicode61
 * remove_diacritics 2`, with and without porter), on real text: the MuSiQue passages
 * (../shared/datasets/musique-dev, or ATLAS_SHARED_DIR), the real markdown corpora
 * (../shared/corpora/*, ../shared/datasets/graphile-worker-dev/docs), and the pages of `npm run
 * bench` made of those passages at --sections (about 60 MB at 100000). Per corpus and variant:
 * tokens/s and MB/s (UTF-8 bytes) of `forEachToken` on a fresh tokenizer (first pass: empty stem
 * cache, JIT warmed on another tokenizer) and in steady state (repeated passes for --seconds), and FTS5's own speed for reference:
 * inserting the same texts into a contentless FTS5 table in one transaction. One thread.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createFts5Tokenizer } from '../src/index/analysis/fts5-tokens.ts';
import { buildPages, musiqueFolder, readPassages } from './musique-corpus.ts';

/** One corpus of texts to tokenize. */
interface Corpus {
  name: string;
  texts: string[];
  bytes: number;
}

/** Speed of one way of tokenizing one corpus. */
interface Speed {
  tokens: number;
  seconds: number;
  tokensPerSecond: number;
  megabytesPerSecond: number;
}

interface Row {
  corpus: string;
  variant: 'unicode61' | 'porter';
  texts: number;
  megabytes: number;
  firstPass: Speed;
  steady: Speed;
  fts5Insert: Speed;
}

function sharedRoot(env: Record<string, string | undefined>): string {
  return env.ATLAS_SHARED_DIR ?? fileURLToPath(new URL('../../shared', import.meta.url));
}

function markdownFiles(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => readFileSync(join(folder, name), 'utf8'));
}

function corpus(name: string, texts: string[]): Corpus {
  return { name, texts, bytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) };
}

function readCorpora(env: Record<string, string | undefined>, sections: number): Corpus[] {
  const root = sharedRoot(env);
  const passages = readPassages(musiqueFolder(env));
  const corpora = [corpus('musique passages', passages.map((passage) => `${passage.title}\n${passage.text}`))];
  const markdown: string[] = [];
  const corporaFolder = join(root, 'corpora');
  if (existsSync(corporaFolder)) markdown.push(...markdownFiles(corporaFolder));
  const graphile = join(root, 'datasets', 'graphile-worker-dev', 'docs');
  if (existsSync(graphile)) markdown.push(...markdownFiles(graphile));
  if (markdown.length > 0) corpora.push(corpus('real markdown docs', markdown));
  if (sections > 0) corpora.push(corpus(`bench pages (${sections} sections)`, buildPages(passages, sections, 42).map((page) => page.markdown)));
  return corpora;
}

function speed(tokens: number, seconds: number, bytes: number): Speed {
  return { tokens, seconds, tokensPerSecond: tokens / seconds, megabytesPerSecond: bytes / 1e6 / seconds };
}

function measureTokenizer(texts: string[], bytes: number, porter: boolean, minimumSeconds: number): { firstPass: Speed; steady: Speed } {
  let tokens = 0;
  const visit = (): void => {
    tokens++;
  };
  // Warm the JIT on a throwaway tokenizer, so the first pass measures a cold stem cache only.
  const warmup = createFts5Tokenizer({ porter });
  for (const text of texts) warmup.forEachToken(text, visit);
  tokens = 0;
  const tokenizer = createFts5Tokenizer({ porter });
  let start = performance.now();
  for (const text of texts) tokenizer.forEachToken(text, visit);
  const firstPass = speed(tokens, (performance.now() - start) / 1000, bytes);
  let passes = 0;
  tokens = 0;
  start = performance.now();
  do {
    for (const text of texts) tokenizer.forEachToken(text, visit);
    passes++;
  } while (performance.now() - start < minimumSeconds * 1000);
  return { firstPass, steady: speed(tokens, (performance.now() - start) / 1000, bytes * passes) };
}

function measureFts5(texts: string[], bytes: number, tokens: number, porter: boolean): Speed {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE bench_fts USING fts5(body, content='', tokenize='${porter ? 'porter ' : ''}unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO bench_fts(rowid, body) VALUES (?, ?)');
  const start = performance.now();
  db.transaction(() => texts.forEach((text, index) => insert.run(index + 1, text)))();
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return speed(tokens, seconds, bytes);
}

function formatSpeed(value: Speed): string {
  return `${(value.tokensPerSecond / 1e6).toFixed(2)} M tok/s ${value.megabytesPerSecond.toFixed(1).padStart(6)} MB/s`;
}

function main(): void {
  const { values } = parseArgs({
    options: { json: { type: 'boolean', default: false }, seconds: { type: 'string', default: '2' }, sections: { type: 'string', default: '100000' } },
  });
  const seconds = Number(values.seconds);
  if (!(seconds > 0)) throw new Error(`bench: --seconds must be a positive number, got "${values.seconds}". Pass e.g. --seconds 2.`);
  const sections = Number(values.sections);
  if (!(Number.isInteger(sections) && sections >= 0)) throw new Error(`bench: --sections must be a whole number, got "${values.sections}". Pass e.g. --sections 100000, or 0 to skip the bench pages.`);
  const rows: Row[] = [];
  for (const { name, texts, bytes } of readCorpora(process.env, sections)) {
    for (const porter of [false, true]) {
      process.stderr.write(`tokenizing ${name} (${porter ? 'porter' : 'unicode61'})...\n`);
      const { firstPass, steady } = measureTokenizer(texts, bytes, porter, seconds);
      const fts5Insert = measureFts5(texts, bytes, firstPass.tokens, porter);
      rows.push({ corpus: name, variant: porter ? 'porter' : 'unicode61', texts: texts.length, megabytes: bytes / 1e6, firstPass, steady, fts5Insert });
    }
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ node: process.version, rows })}\n`);
    return;
  }
  process.stdout.write(`FTS5-exact tokenizer, one thread, Node ${process.version}\n`);
  for (const row of rows) {
    process.stdout.write(
      `${`${row.corpus} (${row.texts} texts, ${row.megabytes.toFixed(2)} MB, ${row.firstPass.tokens} tokens)`.padEnd(58)} ${row.variant.padEnd(9)}\n` +
        `    first pass ${formatSpeed(row.firstPass)} | steady ${formatSpeed(row.steady)} | FTS5 insert ${formatSpeed(row.fts5Insert)}\n`,
    );
  }
}

main();
