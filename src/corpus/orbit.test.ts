import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument, type Doc } from './index.ts';

// The Orbit demo corpus lives in the repo (datasets/orbit/docs).
const errorCodesPath = new URL('../../datasets/orbit/docs/error-codes.md', import.meta.url);

function errorCodes(): Doc {
  const result = parseDocument({ path: 'error-codes.md', bytes: readFileSync(errorCodesPath) });
  if (!result.ok) throw new Error(`error-codes.md did not parse: ${JSON.stringify(result.problems)}`);
  return result.doc;
}

describe('the Orbit error codes page', () => {
  it('gives ORB-1202 PayloadTooLarge a chunk of its own, named after its ### heading, with the full path', () => {
    const chunk = errorCodes().chunks.find((candidate) => candidate.heading === 'ORB-1202 PayloadTooLarge');
    expect(chunk).toMatchObject({
      chunkId: 'error-codes#4',
      headingPath: ['Error codes', '12xx Payloads and results', 'ORB-1202 PayloadTooLarge'],
      startLine: 88,
      endLine: 99,
      prevChunkId: 'error-codes#3',
      nextChunkId: 'error-codes#5',
    });
    expect(chunk!.text.startsWith("The job's arguments or a flow step's result are larger than the payload limit.")).toBe(true);
    expect(chunk!.text.endsWith('See [Results backend](results-backend.md) for the limit and how to store large data outside the\npayload.')).toBe(true);
    expect(chunk!.text).not.toContain('###');
  });

  it('keeps ## sections that are short whole, ### headings inside', () => {
    const chunks = errorCodes().chunks;
    expect(chunks.map((chunk) => chunk.headingPath.slice(1).join(' > '))).toEqual([
      '',
      '10xx Broker',
      '11xx Leases',
      '12xx Payloads and results > ORB-1201 PayloadInvalid',
      '12xx Payloads and results > ORB-1202 PayloadTooLarge',
      '12xx Payloads and results > ORB-1203 ResultExpired',
      '13xx Retries',
      '14xx Flows',
      '15xx Scheduler',
      '16xx Security',
      '17xx Configuration',
    ]);
    expect(chunks[1]!.text.startsWith('### ORB-1001 BrokerUnavailable\n\n')).toBe(true);
  });
});
