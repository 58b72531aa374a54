// The token counter of the audit's budget row: the DeepSeek V3 tokenizer package, and the estimate
// that replaces it, labelled as such, when the package cannot be loaded.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { estimateTokens, loadTokenCounter, TOKENIZER_PACKAGE, TOKENIZER_PIECE, tokenizerPieces } from '../../conformance/audit/tokens.ts'

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

  it('uses the estimate when asked to', async () => {
    expect((await loadTokenCounter('estimate')).name).toBe('estimate: UTF-8 bytes / 4')
  })
})

describe('a long text, counted in pieces', () => {
  // Characters that meet the tokenizer's pre-token patterns at their edges: letters, marks, digits,
  // CJK, punctuation and symbols, and whitespace that JavaScript and Unicode disagree on.
  const TRICKY = ['a', 'Z', 'é', '\u0301', 'ß', '7', '42', '数', 'ー', '😀', '.', '!', '(', '+', '$', '—', ' ', ' ', '  ', '\n', '\r\n', '\t', '\u00a0', '\u0085', '\ufeff', '\u2028', 'x=', "'s"]
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

  it('cuts a long text before a single space or after a line break, never elsewhere', () => {
    expect(tokenizerPieces('ab  cd ef\n\ngh', 2)).toEqual(['ab  cd', ' ef\n\n', 'gh'])
    expect(tokenizerPieces('数据数据数据', 2)).toEqual(['数据数据数据'])
  })

  it('counts a text longer than one piece as the sum of two halves cut where a piece may end', async () => {
    const counter = await loadTokenCounter()
    const half = 'Keep src/a.ts stable, 数据 42 times.\n'.repeat(Math.ceil(TOKENIZER_PIECE / 2 / 30))
    expect(half.length).toBeLessThan(TOKENIZER_PIECE)
    expect(counter.count(half + half)).toBe(2 * counter.count(half))
  }, 30_000)
})
