/**
 * `npx tsx bench/traditional-chinese.ts --out <folder>`
 *
 * Writes CMRC 2018 dev (`ATLAS_SHARED_DIR/datasets/cmrc2018-dev`, else
 * `../shared/datasets/cmrc2018-dev`) in traditional characters to `<folder>`: its passages, its
 * questions and their facts converted by OpenCC's simplified-to-Taiwan rules (opencc-js, the
 * JavaScript build of OpenCC's dictionaries). No dev set is written in traditional characters, the
 * script of Taiwan's and Hong Kong's docs (and of DRCD, CMRC's counterpart); this measures the
 * offline planner on the same questions in either script:
 *
 *   ATLAS_SHARED_DIR=../shared node bin/atlas.js eval compare --data <folder> --every 10 --model offline --out <dir> --json
 *
 * OpenCC converts by phrase and character, so a few names come out in another character than a
 * Taiwanese writer would use (the surname 余 as 餘); questions and passages are converted alike.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as OpenCC from 'opencc-js';
import { cmrcFolder } from './chinese.ts';

interface Question {
  query: string;
  facts?: string[][];
}

function main(): void {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (values.out === undefined) throw new Error('bench/traditional-chinese.ts: pass --out <folder> for the converted set');
  const source = cmrcFolder(process.env);
  const convert = OpenCC.Converter({ from: 'cn', to: 'tw' });
  mkdirSync(join(values.out, 'docs'), { recursive: true });
  mkdirSync(join(values.out, 'eval'), { recursive: true });
  const pages = readdirSync(join(source, 'docs'));
  for (const page of pages) writeFileSync(join(values.out, 'docs', page), convert(readFileSync(join(source, 'docs', page), 'utf8')));
  const questions = readFileSync(join(source, 'eval', 'retrieval_queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const question = JSON.parse(line) as Question;
      return JSON.stringify({ ...question, query: convert(question.query), ...(question.facts ? { facts: question.facts.map((fact) => fact.map(convert)) } : {}) });
    });
  writeFileSync(join(values.out, 'eval', 'retrieval_queries.jsonl'), `${questions.join('\n')}\n`);
  for (const file of ['README.md', 'LICENSE.md']) copyFileSync(join(source, file), join(values.out, file));
  process.stdout.write(`wrote ${pages.length} passages and ${questions.length} questions in traditional characters to ${values.out}\n`);
}

main();
