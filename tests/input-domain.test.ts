// Where the spec sets no result (conformance/input-domain.ts), rule by rule: what compare leaves unjudged,
// the fuzzer leaves uncompared and no vector may ask. Inside every domain, openResult says nothing;
// outside, it names the rule.
import { describe, expect, it } from 'vitest'
import { openResult } from '../conformance/input-domain.ts'
import type { OperationName } from '../conformance/vector-cases.ts'
import { longestSparse, user } from './reference/helpers.ts'

const LOG = [user(0), user(1)]
const HEADER = { version: 0, id: 's', createdAt: 1 }
/** A log load rejects: a seq gap at index 1. */
const GAP = [user(0), user(2)]
const CANDIDATE = { type: 'x/y', data: {} }

/** One table row: the operation, its input, and the rule openResult names (undefined: inside the domain). */
type Row = [OperationName, Record<string, unknown>, string | undefined]

const rows: Row[] = [
  // PROC-9: a log load rejects; append's log skips the vocabulary phase.
  ['messages', { events: [user(0), user(2)] }, 'PROC-9'],
  ['messages', { events: LOG }, undefined],
  ['append', { events: [{ type: 'team/task', seq: 0, time: 1, data: {} }], candidate: { type: 'x/y', data: {} }, time: 1 }, undefined],
  ['relations', { events: [{ type: 'team/task', seq: 0, time: 1, data: {} }] }, 'PROC-9'],
  ['messages', { events: LOG, header: HEADER, sessionId: 't' }, 'PROC-9'],
  // PROC-10: events required; a surface window is checked as a log of its own, so every window is inside.
  ['surface', { events: 'no' }, 'PROC-10'],
  ['surface', { events: [user(6)], baseSeq: 5 }, undefined],
  ['surface', { events: LOG, baseSeq: -0 }, 'PROC-10'],
  // Clocks: PROC-4, the operation table, chapter 15.
  ['append', { events: LOG, candidate: { type: 'x/y', data: {} }, time: 1.5 }, 'PROC-4'],
  ['append', { events: LOG, candidate: { type: 'x/y', data: {} }, time: -0 }, 'PROC-4'],
  ['resume', { events: LOG, now: '5' }, 'the operation table'],
  ['fork', { events: LOG, childId: 'c', now: 5 }, undefined],
  ['fork', { events: LOG, childId: 'c', now: Number.NaN }, 'spec/15-fork.md'],
  ['fork', { events: LOG, childId: 7, now: 5 }, 'spec/15-fork.md'],
  ['compactionState', { events: LOG, entry: 'manual' }, undefined],
  ['compactionState', { events: LOG, entry: 'auto' }, 'the operation table'],
  ['regionBalance', { events: LOG, seq: 0 }, undefined],
  ['regionBalance', { events: LOG, start: 0, end: 1 }, undefined],
  ['regionBalance', { events: LOG, seq: 0, start: 0, end: 1 }, 'REGION-6'],
  ['regionBalance', { events: LOG, seq: undefined, end: 1 }, 'REGION-6'],
  // HDR-4: atSeq is the seq of an event, JSON-14 equal.
  ['requestHeader', { events: LOG, atSeq: 1 }, undefined],
  ['requestContext', { events: LOG, atSeq: 2 }, 'HDR-4'],
  ['requestHeader', { events: LOG, atSeq: -0 }, 'HDR-4'],
  ['requestHeader', { events: LOG, atSeq: '1' }, 'HDR-4'],
  // Chapter 19 and HDR-5.
  ['artifactPath', { sessionId: 's', encoding: 'gzip' }, 'spec/19-jsonl.md'],
  ['artifactPath', { sessionId: 5 }, undefined],
  ['decodeJsonl', { text: '' }, undefined],
  ['decodeJsonl', {}, 'spec/19-jsonl.md'],
  ['decodeJsonl', { text: '', encoding: 'zstd' }, 'spec/19-jsonl.md'],
  ['decodeJsonl', { text: '{"id":"\ud83d\ude00"}' }, undefined],
  ['decodeJsonl', { text: '{"id":"\ud800"}' }, 'JSONL-4'],
  ['decodeJsonl', { text: '{"id":"\ude00\ud83d"}' }, 'JSONL-4'],
  ['encodeJsonl', { header: HEADER, batches: [LOG] }, undefined],
  ['encodeJsonl', { header: HEADER, batches: [LOG, []] }, undefined],
  ['encodeJsonl', { header: HEADER, batches: 5 }, 'JSONL-4'],
  ['encodeJsonl', { header: HEADER, batches: [LOG, 5] }, 'JSONL-4'],
  ['encodeJsonl', { header: HEADER }, 'JSONL-4'],
  ['encodeJsonl', { header: { ...HEADER, version: 1 }, batches: [LOG] }, 'JSONL-5'],
  ['encodeJsonl', { header: HEADER, batches: [[{ ...user(0), time: -0 }]] }, 'spec/19-jsonl.md'],
  ['headerEquals', { left: { config: {} }, right: { config: { a: 1 } } }, undefined],
  ['headerEquals', { left: { config: {} }, right: { config: { a: Number.NaN } } }, 'HDR-5'],
  ['headerEquals', { left: [], right: { config: {} } }, 'HDR-5'],
  // STORE-1, STORE-4: a lossless fault comes first; otherwise a writer's log under an accepted header.
  ['store', { header: HEADER, batches: [LOG] }, undefined],
  ['store', { header: undefined, batches: [LOG] }, undefined],
  ['store', { header: HEADER, batches: [LOG, [{ ...user(2), time: -0 }]] }, undefined],
  ['store', { header: null, batches: [LOG] }, 'STORE-1'],
  ['store', { header: HEADER, batches: [] }, 'STORE-1'],
  ['store', { header: HEADER, batches: [LOG, []] }, 'STORE-1'],
  ['store', { header: HEADER, batches: [, LOG] }, 'STORE-1'],
  // The batches' own form comes before the header: a header outside the lossless domain does not make
  // batches that are no list of arrays inside.
  ['store', { header: undefined, batches: 5 }, 'STORE-1'],
  ['store', { header: undefined }, 'STORE-1'],
  ['store', { header: { ...HEADER, createdAt: Number.NaN }, batches: [LOG, 'x'] }, 'STORE-1'],
  ['store', { header: undefined, batches: [] }, undefined],
  ['store', { header: HEADER, batches: [[user(0), user(2)]] }, 'STORE-1'],
  ['store', { header: HEADER, batches: [[user(0), user(2), { ...user(3), time: -0 }]] }, 'STORE-1'],
  ['store', { header: HEADER, batches: [[{ type: 'steering/message', seq: 0, time: 1, data: { content: 'x' } }]] }, 'STORE-1'],
]

describe('openResult', () => {
  it.each(rows)('%s %j: %s', (operation, input, rule) => {
    const open = openResult(operation, input)
    if (rule === undefined) expect(open).toBeUndefined()
    else expect(open).toContain(rule)
  })
})

describe('openResult on sparse arrays of length 2^32 - 1', () => {
  // Read index by index, each took hours or ran out of memory; by their elements, milliseconds.
  it('judges them by the elements they hold', { timeout: 1000 }, () => {
    expect(openResult('store', { header: HEADER, batches: longestSparse({ 3: LOG }) })).toContain('have a hole')
    expect(openResult('encodeJsonl', { header: HEADER, batches: longestSparse({ 3: LOG }) })).toContain('have a hole')
    // A hole in a batch is the record undefined, which STORE-4 refuses before anything else.
    expect(openResult('store', { header: HEADER, batches: [longestSparse({ 0: user(0) })] })).toBeUndefined()
    expect(openResult('store', { header: HEADER, batches: [longestSparse({ 0: user(2) })] })).toContain('STORE-1')
  })
})

describe('openResult: every operation over a loaded log leaves a log load rejects open (PROC-9)', () => {
  it.each<[OperationName, Record<string, unknown>]>([
    ['repair', {}],
    ['resume', { now: 5 }],
    ['compactionState', {}],
    ['regionBalance', { seq: 0 }],
    ['fork', { childId: 'c', now: 5 }],
    ['messages', {}],
  ])('%s', (operation, members) => {
    expect(openResult(operation, { events: GAP, ...members })).toContain('PROC-9')
    expect(openResult(operation, { events: LOG, ...members })).toBeUndefined()
  })

  it('append too, over a log load rejects but for the vocabulary phase', () => {
    expect(openResult('append', { events: GAP, candidate: CANDIDATE, time: 1 })).toContain('PROC-9')
  })

  it('append reads its log with its header and sessionId, as load does', () => {
    // HEADER_ID_MISMATCH: the header names the session "s", the sessionId "t".
    expect(openResult('append', { header: HEADER, sessionId: 't', events: LOG, candidate: CANDIDATE, time: 1 })).toContain('HEADER_ID_MISMATCH')
    expect(openResult('append', { header: HEADER, sessionId: 's', events: LOG, candidate: CANDIDATE, time: 1 })).toBeUndefined()
  })

  it('only surface takes a window: a baseSeq given to another operation leaves its log checked', () => {
    expect(openResult('messages', { events: GAP, baseSeq: 0 })).toContain('PROC-9')
  })
})

describe('openResult: an operation ignores input members it does not take (PROC-10)', () => {
  // Each member below puts its own operation outside its domain; given to another, it changes nothing.
  it.each<[string, OperationName, Record<string, unknown>]>([
    ['entry, compactionState\'s', 'messages', { events: LOG, entry: 'auto' }],
    ['start alone, regionBalance\'s', 'messages', { events: LOG, start: 0 }],
    ['baseSeq, surface\'s', 'messages', { events: LOG, baseSeq: true }],
    ['encoding, artifactPath\'s and decodeJsonl\'s', 'load', { events: LOG, encoding: 'gzip' }],
    ['text with a zstd encoding, decodeJsonl\'s', 'artifactPath', { sessionId: 's', encoding: 'zstd', text: 'x' }],
    ['atSeq, requestHeader\'s and requestContext\'s', 'messages', { events: LOG, atSeq: 7 }],
  ])('%s', (_member, operation, input) => {
    expect(openResult(operation, input)).toBeUndefined()
  })

  it('decodeJsonl is not defined for an encoding other than raw or zstd, given text', () => {
    expect(openResult('decodeJsonl', { text: '', encoding: 'gzip' })).toContain('its encoding is neither "raw" nor "zstd"')
    expect(openResult('decodeJsonl', { base64: '', encoding: null })).toContain('its encoding is neither "raw" nor "zstd"')
    expect(openResult('decodeJsonl', { text: '', encoding: 'raw' })).toBeUndefined()
  })
})
