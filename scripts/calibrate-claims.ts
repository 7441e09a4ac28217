/**
 * Calibration of the claim support threshold (agent/trust/claims.ts, docs/calibration.md "Claim
 * support") on the per-case answers of `atlas eval compare` reports, several dev sets at once:
 *  - correct: claims of answers the eval scored correct, against their own verified quotes;
 *  - wrong: claims of answers that are not correct (facts missing, or answered where the docs
 *    do not say), against their own quotes;
 *  - swapped: the claims of each correct answer against the quotes of another correct answer of
 *    the same dataset and arm (a quote that exists but says something else: the fabricated case).
 * Identical (answer text, quotes) pairs of one dataset are counted once, whatever the arm.
 * For each threshold the share of claims counted supported is printed per group, and the
 * separation: supported(correct) - supported(swapped), averaged over the datasets. The chosen
 * threshold is the LOWEST whose separation is within {@link TOLERANCE} of the best: the offline
 * planner's answers are verbatim quotes, so the best separation sits at 1 (any reworded word
 * lowers a score), while a model that paraphrases needs room; the lowest threshold that
 * separates almost as well leaves the most room for rewording.
 *
 * Usage:
 *   npx atlas eval compare --data datasets/orbit --out /tmp/cal/orbit   (and each other dev set)
 *   npx tsx scripts/calibrate-claims.ts /tmp/cal/orbit/report.json /tmp/cal/graphile-worker-dev/report.json ... [--json]
 */
import { readFileSync } from 'node:fs';
import { claimSupport, splitClaims } from '../src/agent/trust/claims.ts';

interface ReportCase {
  caseId: string;
  question: string;
  arm: string;
  correct: boolean;
  gold: string[];
  run: { answer: { text: string; abstained: boolean; citations: Array<{ quote: string }> } };
}

interface Scored {
  score: number;
  missing: number;
}

type Group = 'correct' | 'wrong' | 'swapped';
const GROUPS: Group[] = ['correct', 'wrong', 'swapped'];
const THRESHOLDS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
/** How much separation the chosen threshold may give up against the best one. */
const TOLERANCE = 0.02;

function score(text: string, quotes: string[]): Scored[] {
  return splitClaims(text).map((claim) => {
    const { score: value, missing } = claimSupport(claim, quotes);
    return { score: value, missing: missing.length };
  });
}

function groupsOf(cases: ReportCase[]): Record<Group, Scored[]> {
  const groups: Record<Group, Scored[]> = { correct: [], wrong: [], swapped: [] };
  const seen = new Set<string>();
  const answered = cases.filter((item) => !item.run.answer.abstained);
  for (const item of answered) {
    const { text, citations } = item.run.answer;
    const quotes = citations.map((citation) => citation.quote);
    const key = JSON.stringify([text, quotes]);
    if (seen.has(key)) continue;
    seen.add(key);
    groups[item.correct && item.gold.length > 0 ? 'correct' : 'wrong'].push(...score(text, quotes));
  }
  const swappedSeen = new Set<string>();
  for (const arm of new Set(answered.map((item) => item.arm))) {
    // One case per question: a dataset may ask the same question in two files.
    const byQuestion = new Map<string, ReportCase>();
    for (const item of answered) if (item.arm === arm && item.correct && item.gold.length > 0 && !byQuestion.has(item.question)) byQuestion.set(item.question, item);
    const correct = [...byQuestion.values()];
    correct.forEach((item, position) => {
      const other = correct[(position + Math.max(1, Math.floor(correct.length / 2))) % correct.length];
      if (!other || other.question === item.question) return;
      const quotes = other.run.answer.citations.map((citation) => citation.quote);
      const key = JSON.stringify([item.run.answer.text, quotes]);
      if (swappedSeen.has(key)) return;
      swappedSeen.add(key);
      groups.swapped.push(...score(item.run.answer.text, quotes));
    });
  }
  return groups;
}

const supportedShare = (claims: Scored[], threshold: number) =>
  claims.length === 0 ? 0 : claims.filter((claim) => claim.score > 0 && claim.score >= threshold && claim.missing === 0).length / claims.length;
const round = (value: number) => Math.round(value * 1000) / 1000;

const args = process.argv.slice(2);
const json = args.includes('--json');
const files = args.filter((arg) => arg !== '--json');
if (files.length === 0) {
  process.stderr.write('Usage: npx tsx scripts/calibrate-claims.ts <report.json>... [--json] (reports of atlas eval compare --out DIR)\n');
  process.exit(2);
}
const datasets = files.map((file) => {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { dataset: string; model: string; cases: ReportCase[] };
  return { dataset: report.dataset, model: report.model, groups: groupsOf(report.cases) };
});
const table = THRESHOLDS.map((threshold) => {
  const per = datasets.map(({ dataset, groups }) => ({
    dataset,
    ...Object.fromEntries(GROUPS.map((group) => [group, round(supportedShare(groups[group], threshold))])),
  })) as Array<{ dataset: string } & Record<Group, number>>;
  const separation = round(per.reduce((sum, row) => sum + row.correct - row.swapped, 0) / per.length);
  return { threshold, separation, per };
});
const best = Math.max(...table.map((row) => row.separation));
const chosen = table.find((row) => row.separation >= best - TOLERANCE) ?? table[table.length - 1]!;
const counts = datasets.map(({ dataset, model, groups }) => ({
  dataset,
  model,
  claims: Object.fromEntries(GROUPS.map((group) => [group, groups[group].length])) as Record<Group, number>,
  meanScore: Object.fromEntries(GROUPS.map((group) => [group, round(groups[group].reduce((sum, claim) => sum + claim.score, 0) / Math.max(1, groups[group].length))])),
  missingAnchor: Object.fromEntries(GROUPS.map((group) => [group, round(groups[group].filter((claim) => claim.missing > 0).length / Math.max(1, groups[group].length))])),
}));
if (json) {
  process.stdout.write(`${JSON.stringify({ counts, table, best, tolerance: TOLERANCE, chosen: chosen.threshold }, null, 2)}\n`);
} else {
  process.stdout.write('Claims (unique answers): dataset, model, claims correct/wrong/swapped, mean score, share with a missing identifier or number\n');
  for (const row of counts) {
    process.stdout.write(`  ${row.dataset} (${row.model}): ${row.claims.correct}/${row.claims.wrong}/${row.claims.swapped}; mean ${JSON.stringify(row.meanScore)}; missing ${JSON.stringify(row.missingAnchor)}\n`);
  }
  process.stdout.write('\nthreshold | separation | per dataset: supported share correct / wrong / swapped\n');
  for (const row of table) {
    process.stdout.write(`  ${row.threshold.toFixed(1)} | ${row.separation.toFixed(3)} | ${row.per.map((item) => `${item.dataset} ${item.correct} / ${item.wrong} / ${item.swapped}`).join(' ; ')}\n`);
  }
  process.stdout.write(`\nchosen threshold: ${chosen.threshold} (the lowest within ${TOLERANCE} of the best mean separation, ${best.toFixed(3)})\n`);
}
