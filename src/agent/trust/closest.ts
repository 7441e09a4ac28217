import type { ClosestPassage, ModelAnswer } from './answer.ts';
import { verifyCitations } from './citations.ts';
import type { EvidenceSet } from './evidence.ts';

/**
 * The closest passages a model named when abstaining, each sentence verified against the
 * passages the run saw (a sentence that does not verify is left out, and a passage with none),
 * located at the lines its sentences span (a sentence and the example it introduces included).
 *
 * @example
 * verifiedClosest(draft.closest ?? [], session.citableEvidence()); // [{ chunkId: 'error-codes#4', startLine: 90, endLine: 91, sentences: [...], ... }]
 */
export function verifiedClosest(drafts: NonNullable<ModelAnswer['closest']>, evidence: EvidenceSet): ClosestPassage[] {
  const passages: ClosestPassage[] = [];
  for (const draft of drafts) {
    const { kept } = verifyCitations(draft.sentences.map((quote) => ({ doc_id: draft.doc_id, quote })), evidence);
    const first = kept[0];
    if (first === undefined) continue;
    const shown = kept.filter((citation) => citation.chunkId === first.chunkId);
    const { quote: _quote, ...location } = first;
    passages.push({
      ...location,
      startLine: Math.min(...shown.map((citation) => citation.startLine)),
      endLine: Math.max(...shown.map((citation) => citation.endLine)),
      sentences: shown.map((citation) => citation.quote),
    });
  }
  return passages;
}
