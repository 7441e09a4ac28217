import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedFolder } from '../../testing/shared-folder.ts';
import { createFts5Reference } from './fts5-reference.ts';
import { createFts5Tokenizer, foldedHash, FTS5_MAX_TOKEN_BYTES } from './fts5-tokens.ts';

const VARIANTS = [false, true] as const;
const references = { false: createFts5Reference({ porter: false }), true: createFts5Reference({ porter: true }) };
afterAll(() => Object.values(references).forEach((reference) => reference.close()));

interface Mismatch {
  name: string;
  at: number;
  ours: string[];
  fts5: string[];
}

/** Tokenizes every text with ours and with FTS5; returns how many tokens matched and the documents that differ. */
function compare(porter: boolean, named: ReadonlyArray<{ name: string; text: string }>): { tokens: number; mismatches: Mismatch[] } {
  const tokenizer = createFts5Tokenizer({ porter });
  const expected = references[`${porter}`].tokens(named.map((item) => item.text));
  let tokens = 0;
  const mismatches: Mismatch[] = [];
  named.forEach(({ name, text }, index) => {
    const fts5 = expected[index] ?? [];
    const ours = tokenizer.tokens(text);
    tokens += fts5.length;
    // The folded tokens, each finished by termOf, are the same tokens.
    const viaFolded: string[] = [];
    tokenizer.forEachFolded(text, (folded) => viaFolded.push(tokenizer.termOf(folded)));
    if (viaFolded.length !== ours.length || viaFolded.some((token, position) => token !== ours[position])) {
      mismatches.push({ name: `${name} (forEachFolded + termOf)`, at: 0, ours: viaFolded.slice(0, 3), fts5: ours.slice(0, 3) });
    }
    // The same folded tokens through forEachFoldedSpan: ASCII ones as spans with their hash.
    const viaSpans: string[] = [];
    tokenizer.forEachFoldedSpan(
      text,
      (source, start, end, hash, upper) => {
        const token = source.slice(start, end);
        const folded = upper ? token.toLowerCase() : token;
        viaSpans.push(hash === foldedHash(folded) && upper === /[A-Z]/.test(token) ? tokenizer.termOf(folded) : `bad hash or case: ${token}`);
      },
      (folded) => viaSpans.push(tokenizer.termOf(folded)),
    );
    if (viaSpans.length !== ours.length || viaSpans.some((token, position) => token !== ours[position])) {
      const at = Math.max(0, viaSpans.findIndex((token, position) => token !== ours[position]));
      mismatches.push({ name: `${name} (forEachFoldedSpan + termOf)`, at, ours: viaSpans.slice(at, at + 3), fts5: ours.slice(at, at + 3) });
    }
    if (ours.length === fts5.length && ours.every((token, position) => token === fts5[position])) return;
    const at = Math.max(0, ours.findIndex((token, position) => token !== fts5[position]));
    mismatches.push({ name, at, ours: ours.slice(at, at + 3), fts5: fts5.slice(at, at + 3) });
  });
  return { tokens, mismatches };
}

function markdownFiles(folder: string): Array<{ name: string; text: string }> {
  return (readdirSync(folder, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ name: join(folder, name), text: readFileSync(join(folder, name), 'utf8') }));
}

describe('createFts5Tokenizer', () => {
  it('tokenizes identifiers, numbers and prose like FTS5 unicode61 remove_diacritics 2', () => {
    const tokenizer = createFts5Tokenizer({ porter: false });
    expect(tokenizer.tokens('PayloadTooLarge getHTTPResponseCode max_payload_kb ORB-1202')).toEqual(['payloadtoolarge', 'gethttpresponsecode', 'max', 'payload', 'kb', 'orb', '1202']);
    expect(tokenizer.tokens('pi is 3.14, not 1,000 or 1e-9 v2.0.1')).toEqual(['pi', 'is', '3', '14', 'not', '1', '000', 'or', '1e', '9', 'v2', '0', '1']);
    expect(tokenizer.tokens('the the THE')).toEqual(['the', 'the', 'the']);
    expect(tokenizer.tokens('')).toEqual([]);
    expect(tokenizer.tokens(' \n\t.,;')).toEqual([]);
  });

  it('folds case and diacritics per code point, with SQLite Unicode 6.1-era classes', () => {
    const tokenizer = createFts5Tokenizer({ porter: false });
    const cases: Array<[string, string[]]> = [
      // Emoji of Unicode 6.1 separate; later ones (robot, skin tone) were unassigned then: token characters.
      ['ship it 🚀 😀 🤖 👍🏽 👨‍👩‍👧 ❤️', ['ship', 'it', '🤖', '🏽']],
      ['日本語のテキスト 中文 한국어', ['日本語のテキスト', '中文', '한국어']],
      ['Ελληνικά ΣΊΣΥΦΟΣ ς Русский ЁЛКА', ['ελληνικά', 'σίσυφοσ', 'σ', 'русский', 'ёлка']],
      ['İstanbul ısı DİYARBAKIR', ['istanbul', 'ısı', 'diyarbakir']],
      ['Straße STRASSE ẞ', ['straße', 'strasse', 'ß']],
      ['ﬁnance ﬂow Ǆemal ĳssel', ['ﬁnance', 'ﬂow', 'ǆemal', 'ĳssel']],
      // NFD and NFC alike; a diacritic continues a token but cannot start one.
      ['cafe\u0301 café Ame\u0301lie A\u030a Å ṩ ệ \u0301x', ['cafe', 'cafe', 'amelie', 'a', 'a', 's', 'e', 'x']],
      ['naïvely Łódź Þórr Øresund æther œuvre', ['naively', 'łodz', 'þorr', 'øresund', 'æther', 'œuvre']],
      // Other combining marks separate: Arabic harakat, Devanagari signs.
      ['العَرَبِيَّة السلام', ['الع', 'ر', 'ب', 'ي', 'ة', 'السلام']],
      ['नमस्ते दुनिया', ['नमस', 'त', 'द', 'न', 'य']],
      ['zero\u200dwidth\u200cnon joiner\u200bspace\ufeffbom', ['zero', 'width', 'non', 'joiner', 'space', 'bom']],
      ['private \ue000\uf8ff \u{f0000}x', ['private', '\ue000\uf8ff', '\u{f0000}x']],
      // A lone surrogate reaches SQLite as U+FFFD, a separator; Deseret folds above the BMP.
      ['lone\ud800high \udc00low pair \ud801\udc00', ['lone', 'high', 'low', 'pair', '\u{10428}']],
    ];
    for (const [text, tokens] of cases) expect(tokenizer.tokens(text), text).toEqual(tokens);
    expect(compare(false, cases.map(([text]) => ({ name: text, text }))).mismatches).toEqual([]);
  });

  it('stems with FTS5 porter: the classic vocabulary, byte-wise on non-ASCII tokens', () => {
    const tokenizer = createFts5Tokenizer({ porter: true });
    const cases: Array<[string, string[]]> = [
      ['caresses ponies ties caress cats feed agreed plastered bled motoring sing', ['caress', 'poni', 'ti', 'caress', 'cat', 'feed', 'agre', 'plaster', 'bled', 'motor', 'sing']],
      ['conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky', ['conflat', 'troubl', 'size', 'hop', 'tan', 'fall', 'hiss', 'fizz', 'fail', 'file', 'happi', 'sky']],
      ['relational conditional valency digitizer radicalli vietnamization operator decisiveness', ['relat', 'condit', 'valenc', 'digit', 'radic', 'vietnam', 'oper', 'decis']],
      ['triplicate formative goodness allowance adjustable replacement adoption homologous controll', ['triplic', 'form', 'good', 'allow', 'adjust', 'replac', 'adopt', 'homolog', 'control']],
      ['PayloadTooLarge Retrying naïvely Straße ﬁnance Ame\u0301lie', ['payloadtoolarg', 'retri', 'naiv', 'straß', 'ﬁnanc', 'ameli']],
      // Stems of fewer than 3 or more than 64 bytes pass through; a 2-letter non-ASCII token can have 3 bytes.
      ['is as ies øs øøs', ['is', 'as', 'ie', 'ø', 'øø']],
      [`a${'x'.repeat(60)}ing a${'x'.repeat(61)}ing`, [`a${'x'.repeat(59)}`, `a${'x'.repeat(61)}ing`]],
      [`a${'ø'.repeat(30)}ing a${'ø'.repeat(31)}ing`, [`a${'ø'.repeat(30)}`, `a${'ø'.repeat(31)}ing`]],
      // -ed / -ing leaving one vowel; -eed with a longer stem never falls back to -ed; y is a consonant when doubled.
      ['aed eed ied bleed ayying', ['a', 'e', 'i', 'bleed', 'ai']],
    ];
    for (const [text, tokens] of cases) expect(tokenizer.tokens(text), text).toEqual(tokens);
    expect(compare(true, cases.map(([text]) => ({ name: text, text }))).mismatches).toEqual([]);
  });

  it('pins the invalid UTF-8 FTS5 makes: a stem cut inside a character, a token cut at 32768 bytes', () => {
    // U+1000 is E1 80 80: after -ing goes, porter drops the repeated 80 (a "double consonant").
    // FTS5 stores the broken bytes; better-sqlite3 and this tokenizer both read them as U+FFFD.
    expect(createFts5Tokenizer({ porter: true }).tokens('aကing')).toEqual(['a\ufffd']);
    const tokenizer = createFts5Tokenizer({ porter: false });
    const texts = ['a'.repeat(40_000), 'ж'.repeat(20_000), `x${'ж'.repeat(20_000)}`];
    expect(tokenizer.tokens(texts[0]!)).toEqual(['a'.repeat(FTS5_MAX_TOKEN_BYTES)]);
    expect(tokenizer.tokens(texts[1]!)).toEqual(['ж'.repeat(16_384)]);
    expect(tokenizer.tokens(texts[2]!)).toEqual([`x${'ж'.repeat(16_383)}\ufffd`]);
    for (const porter of VARIANTS) {
      expect(compare(porter, [...texts, 'aကing'].map((text, index) => ({ name: `case ${index}`, text }))).mismatches).toEqual([]);
    }
  });

  it('treats every code point as FTS5 does, inside a token and at its start', () => {
    const tokenizer = createFts5Tokenizer({ porter: false });
    const reference = references.false;
    const mismatched: string[] = [];
    for (let first = 0; first <= 0x10ffff; first += 8192) {
      const chars: string[] = [];
      for (let cp = first; cp < Math.min(first + 8192, 0x110000); cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
      const texts = [chars.map((char) => `q${char}q`).join(' '), chars.map((char) => `z ${char}q`).join(' ')];
      const expected = reference.tokens(texts);
      texts.forEach((text, index) => {
        const ours = tokenizer.tokens(text);
        const fts5 = expected[index] ?? [];
        const at = ours.findIndex((token, position) => token !== fts5[position]);
        if (at >= 0 || ours.length !== fts5.length) mismatched.push(`U+${first.toString(16)} block, token ${at}: ${ours[at]} vs ${fts5[at]}`);
      });
    }
    expect(mismatched, 'the SQLite in use differs from src/index/analysis/fts5-unicode-data.ts: run `npx tsx scripts/fts5-unicode-tables.ts`').toEqual([]);
  });

  it('matches FTS5 on random text mixing scripts, marks, emoji, surrogates and suffixes', () => {
    const range = (from: number, to: number) => fc.integer({ min: from, max: to }).map((cp) => String.fromCodePoint(cp));
    const piece = fc.oneof(
      range(0x20, 0x7e),
      range(0x00, 0x1f),
      range(0x7f, 0x9f),
      fc.constantFrom(' ', '\n', 'ing', 'ed', 's', 'ies', 'eed', 'ational', 'ness', 'ly', 'y', 'e', 'll', 'ATION', 'ING', 'ß', 'İ', 'ı', 'ς'),
      range(0xa0, 0x24f),
      range(0x300, 0x36f),
      range(0x370, 0x52f),
      range(0x530, 0x6ff),
      range(0x900, 0x97f),
      range(0x1000, 0x109f),
      range(0x10a0, 0x10ff),
      range(0x1ab0, 0x1cbf),
      range(0x1e00, 0x1fff),
      range(0x2000, 0x24ff),
      range(0x2c00, 0x2dff),
      range(0x3040, 0x30ff),
      range(0x4e00, 0x4e80),
      range(0xa640, 0xa7ff),
      range(0xac00, 0xac40),
      range(0xe000, 0xe010),
      range(0xfb00, 0xffff),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
      range(0x10400, 0x1044f),
      range(0x1d400, 0x1d7ff),
      range(0x1f300, 0x1faff),
      range(0x10000, 0x10ffff),
    );
    const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
    for (const porter of VARIANTS) {
      fc.assert(
        fc.property(fc.array(text, { minLength: 1, maxLength: 20 }), (texts) => {
          expect(compare(porter, texts.map((item) => ({ name: JSON.stringify(item), text: item }))).mismatches).toEqual([]);
        }),
        { seed: 20261201, numRuns: 400 },
      );
    }
  });

  it('stems random words made of Porter suffixes like FTS5', () => {
    const suffixes = 'ing ed s ies eed ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism iveness fulness ousness aliti iviti biliti ical ness icate iciti ful ative alize al ance ence er ic able ible ant ement ment ent sion tion ou ism ate iti ous ive ize ion e ll at bl iz y yy ying ss sses';
    const part = fc.oneof(fc.constantFrom(...'aeiouybcdlmnrstzwxgkpv'.split('')), fc.constantFrom(...suffixes.split(' ')), fc.constantFrom('ø', 'က', 'É'));
    const word = fc.array(part, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 60 }), (words) => {
        expect(compare(true, [{ name: words.join(' '), text: words.join(' ') }]).mismatches).toEqual([]);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('matches FTS5 on the repo dataset, token for token', () => {
    const docs = markdownFiles(fileURLToPath(new URL('../../../datasets/orbit/docs', import.meta.url)));
    for (const porter of VARIANTS) {
      const result = compare(porter, docs);
      expect(result.mismatches).toEqual([]);
      expect(result.tokens).toBeGreaterThan(10_000);
    }
  });

  it('matches FTS5 on every real markdown corpus and every MuSiQue passage, token for token', ({ skip }) => {
    const folders = [
      sharedFolder('corpora', process.env),
      sharedFolder('datasets/graphile-worker-dev/docs', process.env),
      sharedFolder('datasets/musique-dev/docs', process.env),
    ];
    skip(!folders.every((folder) => folder.present), folders.find((folder) => !folder.present)?.absent);
    const docs = folders.flatMap((folder) => markdownFiles(folder.path));
    for (const porter of VARIANTS) {
      const result = compare(porter, docs);
      expect(result.mismatches).toEqual([]);
      expect(result.tokens).toBeGreaterThan(150_000);
    }
    expect(docs.length).toBeGreaterThan(1_900);
  });

  it('counts and visits the same tokens it returns, whatever the stem cache size', () => {
    const text = 'Retrying the retries: jobs RETRY, retried; naïve NAÏVE naïvely 🤖 ﬁnance';
    const expected = createFts5Tokenizer({ porter: true }).tokens(text);
    expect(expected).toEqual(['retri', 'the', 'retri', 'job', 'retri', 'retri', 'naiv', 'naiv', 'naiv', '🤖', 'ﬁnanc']);
    for (const stemCacheSize of [0, 1, 2, 1000]) {
      const tokenizer = createFts5Tokenizer({ porter: true, stemCacheSize });
      const visited: string[] = [];
      const positions: number[] = [];
      tokenizer.forEachToken(text, (token, position) => {
        visited.push(token);
        positions.push(position);
      });
      expect(visited).toEqual(expected);
      expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(tokenizer.tokens(text)).toEqual(expected);
      expect(tokenizer.count(text)).toBe(11);
    }
    expect(createFts5Tokenizer({ porter: false }).count('a b\u0301 \u0301 c')).toBe(3);
    const folded: string[] = [];
    const tokenizer = createFts5Tokenizer({ porter: true });
    tokenizer.forEachFolded(text, (token) => folded.push(token));
    expect(folded).toEqual(['retrying', 'the', 'retries', 'jobs', 'retry', 'retried', 'naive', 'naive', 'naively', '🤖', 'ﬁnance']);
    expect(folded.map((token) => tokenizer.termOf(token))).toEqual(expected);
    // ASCII tokens as spans of the text (with the hash of the folded form), the others folded.
    const spans: Array<[number, number, boolean]> = [];
    const others: string[] = [];
    tokenizer.forEachFoldedSpan(
      'Retrying ORB-1202 naïve',
      (source, start, end, hash, upper) => {
        expect(hash).toBe(foldedHash(source.slice(start, end).toLowerCase()));
        spans.push([start, end, upper]);
      },
      (token) => others.push(token),
    );
    expect(spans).toEqual([[0, 8, true], [9, 12, true], [13, 17, false]]);
    expect(others).toEqual(['naive']);
  });

  it('rejects bad options and non-string text, naming the value and the fix', () => {
    expect(() => createFts5Tokenizer({} as never)).toThrow('Atlas: createFts5Tokenizer needs options.porter true or false, got undefined. Pass e.g. { porter: true }.');
    expect(() => createFts5Tokenizer({ porter: 'yes' } as never)).toThrow('Atlas: createFts5Tokenizer needs options.porter true or false, got "yes". Pass e.g. { porter: true }.');
    expect(() => createFts5Tokenizer({ porter: true, stemCacheSize: -1 })).toThrow(
      'Atlas: createFts5Tokenizer options.stemCacheSize must be a non-negative integer, got -1. Pass e.g. 131072, or 0 for no cache.',
    );
    const tokenizer = createFts5Tokenizer({ porter: false });
    expect(() => tokenizer.tokens(undefined as never)).toThrow('Atlas: the FTS5 tokenizer needs a string, got undefined. Pass the text of a chunk or query.');
    expect(() => tokenizer.count(null as never)).toThrow('Atlas: the FTS5 tokenizer needs a string, got null. Pass the text of a chunk or query.');
  });
});
