import { describe, expect, it } from 'vitest';
import { abstentionRates, chooseAbstention, type Row } from './calibrate.ts';

/** A row whose coverage passes every other condition, with the given focus share. */
function row(dataset: string, answerable: boolean, focusShare: number): Row {
  return { dataset, answerable, bestScore: 10, missingAnchorShare: 0, total: 1, placeholderMatch: 0, focusShare };
}

describe('chooseAbstention', () => {
  it('picks the loosest focus share that catches the unanswerable questions without refusing answerable ones, over every set', () => {
    const rows = [
      row('docs-a', false, 0.5),
      row('docs-a', false, 0.67),
      ...Array.from({ length: 10 }, () => row('docs-a', true, 1)),
      row('docs-b', false, 0.5),
      row('docs-b', true, 0.75),
      ...Array.from({ length: 9 }, () => row('docs-b', true, 1)),
    ];
    // 0.7 catches all three unanswerable rows and refuses none: 0.8 and 1 would refuse docs-b's 0.75.
    const chosen = chooseAbstention(rows);
    expect(chosen.minFocusShare).toBe(0.7);
    expect(abstentionRates(rows, chosen)).toEqual([
      { dataset: 'docs-a', unanswerableAbstained: '2 of 2', answerableAbstained: 0 },
      { dataset: 'docs-b', unanswerableAbstained: '1 of 1', answerableAbstained: 0 },
    ]);
  });

  it('turns the focus condition off when any threshold would refuse more than 10% of a set\'s answerable questions', () => {
    const rows = [row('docs-a', false, 0.5), row('docs-a', true, 0.4), ...Array.from({ length: 4 }, () => row('docs-a', true, 1))];
    expect(chooseAbstention(rows).minFocusShare).toBe(0);
  });
});
