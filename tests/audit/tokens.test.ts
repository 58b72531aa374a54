// The token counter of the audit's budget row: the DeepSeek V3 tokenizer package, and the estimate
// that replaces it, labelled as such, when the package cannot be loaded.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { estimateTokens, loadTokenCounter, MOST_COUNTED_RUN, TOKENIZER_PACKAGE, TOKENIZER_PIECE, tokenizerPieces } from '../../conformance/audit/tokens.ts'

describe('token counter', () => {
  it('counts with the DeepSeek V3 tokenizer, offline, without special tokens', async () => {
    const counter = await loadTokenCounter()
    expect(counter.kind).toBe('tokenizer')
    expect(counter.name).toBe(`${TOKENIZER_PACKAGE}@3.7.2`)
    expect(counter.count('Hello, my dog is cute. 你好，世界')).toBe(11)
    expect(counter.count('')).toBe(0)
  }, 30_000)

  it('falls back to an estimate of one token per 4 UTF-8 bytes, and says so, when the package is missing', async () => {
    const counter = await loadTokenCounter('auto', '@lenml/no-such-tokenizer')
    expect(counter.kind).toBe('estimate')
    expect(counter.note).toMatch(/^Token counts are estimates .*@lenml\/no-such-tokenizer could not be loaded/)
    expect(counter.count('abcdefgh')).toBe(2)
    expect(estimateTokens('你好')).toBe(2)
  })

  it('estimates a run it cannot cut that is too long to count at a bounded cost, and counts how many it estimated', async () => {
    const counter = await loadTokenCounter()
    const estimated = new Set<string>()
    expect(counter.count('A'.repeat(MOST_COUNTED_RUN), estimated)).toBe(MOST_COUNTED_RUN / 8)
    expect(estimated.size).toBe(0)
    // 20 MB of one letter ran the tokenizer out of memory; estimated, it takes no time.
    expect(counter.count(`${'A'.repeat(20_000_000)} and more`, estimated)).toBe(5_000_000 + counter.count(' and more'))
    expect(counter.count('A'.repeat(MOST_COUNTED_RUN + 1), estimated)).toBe(Math.ceil((MOST_COUNTED_RUN + 1) / 4))
    expect(counter.count('A'.repeat(MOST_COUNTED_RUN + 1), estimated)).toBe(Math.ceil((MOST_COUNTED_RUN + 1) / 4))
    expect([...estimated].map(piece => piece.length)).toEqual([20_000_000, MOST_COUNTED_RUN + 1])
  }, 30_000)

  it('uses the estimate when asked to', async () => {
    expect((await loadTokenCounter('estimate')).name).toBe('estimate: UTF-8 bytes / 4')
  })
})

describe('a long text, counted in pieces', () => {
  // Characters that meet the tokenizer's pre-token patterns at their edges: letters, marks, digits,
  // CJK, punctuation and symbols, and whitespace that JavaScript and Unicode disagree on.
  // An added token with a digit (after `▁`) is drawn whole, and its parts alone.
  const TRICKY = ['a', 'Z', 'é', '\u0301', 'ß', '7', '42', '½', '数', 'ー', 'の', '😀', '.', '!', '(', '+', '/', '=', '$', '—', ' ', ' ', '  ', '\n', '\r\n', '\t', '\u00a0', '\u0085', '\ufeff', '\u2028', 'x=', "'s", '▁', 'no▁', '<｜place▁holder▁no▁7｜>']
  const texts = fc.array(fc.constantFrom(...TRICKY), { maxLength: 60 }).map(parts => parts.join(''))

  it('cuts only where the pieces count as the whole does', async () => {
    const counter = await loadTokenCounter()
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 12 }), (text, piece) => {
        const pieces = tokenizerPieces(text, piece)
        expect(pieces.join('')).toBe(text)
        for (const cut of pieces.slice(0, -1)) expect(cut.length).toBeGreaterThanOrEqual(piece)
        expect(pieces.reduce((sum, part) => sum + counter.count(part), 0)).toBe(counter.count(text))
      }),
      { numRuns: 400, seed: 1 },
    )
  }, 60_000)

  it('cuts a long text before a single space, after a line break, or where a digit or CJK run starts, never elsewhere', () => {
    expect(tokenizerPieces('ab  cd ef\n\ngh', 2)).toEqual(['ab  cd', ' ef\n\n', 'gh'])
    expect(tokenizerPieces('数据数据数据', 2)).toEqual(['数据数据数据'])
    // At the start of a run of digits or of CJK, but not after ▁ (an added token holds ▁ then digits).
    expect(tokenizerPieces('ab12cd数据', 1)).toEqual(['ab', '12cd', '数据'])
    expect(tokenizerPieces('no▁7', 1)).toEqual(['no▁7'])
    // A piece's end inside a surrogate pair: the search starts after the pair (it looped for ever).
    expect(tokenizerPieces('\r\n😀a', 1)).toEqual(['\r\n', '😀a'])
  })

  it('cuts JSON with no space, such as a base64 image, at its digits, and counts it as a whole', async () => {
    const counter = await loadTokenCounter()
    const json = JSON.stringify({ data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB'.repeat(5000) })
    const pieces = tokenizerPieces(json)
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join('')).toBe(json)
    // A part shorter than TOKENIZER_PIECE is counted whole; cut into small pieces, it counts the same.
    const part = json.slice(0, TOKENIZER_PIECE - 1)
    const small = tokenizerPieces(part, 1000)
    expect(small.length).toBeGreaterThan(30)
    expect(small.reduce((sum, piece) => sum + counter.count(piece), 0)).toBe(counter.count(part))
  }, 30_000)

  it('counts a text longer than one piece as the sum of two halves cut where a piece may end', async () => {
    const counter = await loadTokenCounter()
    const half = 'Keep src/a.ts stable, 数据 42 times.\n'.repeat(Math.ceil(TOKENIZER_PIECE / 2 / 30))
    expect(half.length).toBeLessThan(TOKENIZER_PIECE)
    expect(counter.count(half + half)).toBe(2 * counter.count(half))
  }, 30_000)
})
