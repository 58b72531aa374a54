// The token counter of the audit's budget row: the DeepSeek V3 tokenizer package, and the estimate
// that replaces it, labelled as such, when the package cannot be loaded.
import { describe, expect, it } from 'vitest'
import { estimateTokens, loadTokenCounter, TOKENIZER_PACKAGE } from '../../conformance/audit/tokens.ts'

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
