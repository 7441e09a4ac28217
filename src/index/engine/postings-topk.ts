import type { ScoredId } from './rank-request.ts';

/** The best k (score, id) pairs of a search (postings-search.ts): a binary min-heap whose root is the worst (lowest score, then largest id). */
export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
    this.ids = new Float64Array(k);
  }

  full(): boolean {
    return this.size === this.k;
  }

  worstScore(): number {
    return this.scores[0]!;
  }

  /** Whether (score, id) would enter: the heap is not full, or it beats the worst. */
  admits(score: number, id: number): boolean {
    if (this.size < this.k) return true;
    return score > this.scores[0]! || (score === this.scores[0]! && id < this.ids[0]!);
  }

  push(score: number, id: number): void {
    if (this.size < this.k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.worse(score, id, this.scores[parent]!, this.ids[parent]!)) break;
        this.scores[at] = this.scores[parent]!;
        this.ids[at] = this.ids[parent]!;
        at = parent;
      }
      this.scores[at] = score;
      this.ids[at] = id;
      return;
    }
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.worse(this.scores[right]!, this.ids[right]!, this.scores[left]!, this.ids[left]!) ? right : left;
      if (!this.worse(this.scores[child]!, this.ids[child]!, score, id)) break;
      this.scores[at] = this.scores[child]!;
      this.ids[at] = this.ids[child]!;
      at = child;
    }
    this.scores[at] = score;
    this.ids[at] = id;
  }

  /** Best first: score descending, then id ascending. */
  sorted(): ScoredId[] {
    const out: ScoredId[] = [];
    for (let n = 0; n < this.size; n += 1) out.push({ id: this.ids[n]!, score: this.scores[n]! });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  private worse(scoreA: number, idA: number, scoreB: number, idB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && idA > idB);
  }
}
