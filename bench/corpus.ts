import { createRandom, createZipf, type Random } from './prng.ts';
import { createIdentifiers, createVocabulary } from './vocabulary.ts';

/** One generated markdown page. */
export interface GeneratedPage {
  path: string;
  markdown: string;
}

/** Seeded generator of pages and queries sharing one vocabulary and identifier set. */
export interface SyntheticCorpus {
  /** A page with front matter, `# Title`, an intro and 3-8 `##` sections. */
  page(n: number): GeneratedPage;
  /** A search query: keywords, a question, an identifier, a rare word or a long query. */
  query(): string;
}

/**
 * Creates the generator. Words follow a Zipf distribution over a ~30k-word vocabulary (common
 * documentation words at the head); about 2% of words are identifiers in backticks; some sections
 * hold a TOML code block.
 *
 * @example
 * const corpus = createSyntheticCorpus(42);
 * corpus.page(0).markdown.startsWith('---\nid: page-0\n') // true
 */
export function createSyntheticCorpus(seed: number): SyntheticCorpus {
  const random = createRandom(seed);
  const vocabulary = createVocabulary(random, 30_000);
  const identifiers = createIdentifiers(random, vocabulary, 3_000);
  const wordRank = createZipf(vocabulary.length, 1.05);
  const identifierRank = createZipf(identifiers.length, 0.8);
  const word = () => vocabulary[wordRank(random)]!;
  const identifier = () => identifiers[identifierRank(random)]!;
  const midWord = () => vocabulary[random.int(60, 6000)]!;
  const text = textWriter(random, word, identifier);

  return {
    page(n) {
      const title = titleCase(Array.from({ length: random.int(2, 4) }, midWord));
      const appliesTo = random.pick(['2.x', '3.x', 'all', 'all']);
      const team = random.pick(['platform', 'billing', 'ops', 'security']);
      const lines = ['---', `id: page-${n}`, `title: ${title}`, `applies_to: "${appliesTo}"`, `labels:`, `  team: ${team}`, '---', '', `# ${title}`, '', text.paragraph(), ''];
      const sections = random.int(3, 8);
      for (let section = 0; section < sections; section += 1) {
        lines.push(`## ${titleCase(Array.from({ length: random.int(1, 3) }, midWord))}`, '');
        const paragraphs = random.int(1, 3);
        for (let p = 0; p < paragraphs; p += 1) lines.push(text.paragraph(), '');
        if (random.chance(0.15)) lines.push('```toml', `[${midWord()}]`, `${identifier()} = ${random.int(1, 900)}`, '```', '');
      }
      return { path: `section-${n % 50}/page-${n}.md`, markdown: lines.join('\n') };
    },

    query() {
      const roll = random.next();
      if (roll < 0.35) return Array.from({ length: random.int(2, 3) }, midWord).join(' ');
      if (roll < 0.55) return `how do I ${midWord()} the ${midWord()} ${midWord()} when it is ${midWord()}?`;
      if (roll < 0.75) return identifier();
      if (roll < 0.85) return vocabulary[random.int(8000, vocabulary.length - 1)]!;
      return Array.from({ length: 15 }, word).join(' ');
    },
  };
}

function textWriter(random: Random, word: () => string, identifier: () => string) {
  const sentence = (): string => {
    const length = random.int(6, 16);
    const parts: string[] = [];
    for (let n = 0; n < length; n += 1) parts.push(random.chance(0.02) ? `\`${identifier()}\`` : word());
    const first = parts[0]!;
    parts[0] = first[0] === '`' ? first : first[0]!.toUpperCase() + first.slice(1);
    return `${parts.join(' ')}.`;
  };
  return {
    paragraph: (): string => Array.from({ length: random.int(2, 4) }, sentence).join(' '),
  };
}

function titleCase(words: string[]): string {
  return words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ');
}
