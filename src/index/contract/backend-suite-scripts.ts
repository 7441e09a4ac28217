import { describe, expect, it } from 'vitest';
import type { BackendSuiteContext } from './backend-suite-context.ts';
import { createTestDoc } from '../test-docs.ts';

const ids = (hits: Array<{ chunkId: string }>): string[] => hits.map((hit) => hit.chunkId);

const GONGS = createTestDoc({
  docId: 'gongs',
  title: '锣鼓经',
  sections: ['锣鼓经是大陆传统器乐及戏曲里面常用的打击乐记谱方法，以中文字的声音模拟敲击乐的声音。'],
});
const TEA = createTestDoc({ docId: 'tea', title: '茶', sections: ['茶叶起源于中国西南地区，饮茶的历史已有数千年。'] });
const TOKYO = createTestDoc({ docId: 'tokyo', title: '東京', sections: ['東京都は日本の首都です。ひらがなとカタカナを学びます。'] });
const THAI = createTestDoc({ docId: 'thai', title: 'ภาษา', sections: ['ภาษาไทยเป็นภาษาที่สวยงามมาก'] });
const LIMITS = createTestDoc({
  docId: 'limits',
  title: '负载限制',
  sections: ['设置max_payload_kb为512可以限制请求的负载大小。'],
});
const ENGLISH = createTestDoc({ docId: 'english', sections: ['Failed jobs are retried with backoff; see max_retries.'] });

/**
 * Text written without spaces (Chinese, Japanese, Thai) is found by the words in it, and
 * identifiers inside it by their name; snippets show the part of a long passage that matches.
 * Part of the shared suite.
 */
export function describeScriptsContract(context: BackendSuiteContext): void {
  describe('text without spaces', () => {
    it('finds a Chinese passage by a question about it, and a single character', async () => {
      const index = context.index();
      await index.ingest([GONGS, TEA, TOKYO, THAI, LIMITS, ENGLISH]);
      expect(ids(await index.search('锣鼓经用什么模拟敲击乐的声音？', { k: 1 }))).toEqual(['gongs#0']);
      expect(ids(await index.search('饮茶有多少年历史', { k: 1 }))).toEqual(['tea#0']);
      expect(ids(await index.search('茶', { k: 5 }))).toEqual(['tea#0']);
    });

    it('finds Japanese by a kanji word and a kana word, and Thai by a word', async () => {
      const index = context.index();
      await index.ingest([GONGS, TEA, TOKYO, THAI, LIMITS, ENGLISH]);
      expect(ids(await index.search('首都', { k: 5 }))).toEqual(['tokyo#0']);
      expect(ids(await index.search('ひらがな', { k: 5 }))).toEqual(['tokyo#0']);
      expect(ids(await index.search('สวยงาม', { k: 5 }))).toEqual(['thai#0']);
    });

    it('finds an identifier inside Chinese prose by its name, and the prose by its words', async () => {
      const index = context.index();
      await index.ingest([GONGS, TEA, TOKYO, THAI, LIMITS, ENGLISH]);
      expect(ids(await index.search('max_payload_kb', { k: 1 }))).toEqual(['limits#0']);
      expect(ids(await index.search('maxpayloadkb', { k: 5 }))).toEqual(['limits#0']);
      expect(ids(await index.search('怎样限制负载大小', { k: 1 }))).toEqual(['limits#0']);
      expect(ids(await index.search('max_retries', { k: 1 }))).toEqual(['english#0']);
    });

    it('shows the matching part of a long Chinese passage as the snippet', async () => {
      const index = context.index();
      const filler = '这一段讲的是别的事情，与问题没有关系。'.repeat(20);
      const passage = createTestDoc({ docId: 'long', sections: [`${filler}战国无双3是由光荣和ω-force合作开发的游戏。${filler}`] });
      await index.ingest([passage, TEA]);
      const [hit] = await index.search('战国无双3是由哪两个公司合作开发的？', { k: 1 });
      expect(hit!.chunkId).toBe('long#0');
      expect(hit!.snippet).toBe(`…战国无双3是由光荣和ω-force合作开发的游戏。${filler}`.slice(0, 299) + '…');
    });
  });
}
