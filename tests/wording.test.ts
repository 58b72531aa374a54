// The wording helpers every report uses.
import { describe, expect, it } from 'vitest'
import { markdownText, MESSAGE_MOST, plural, shortened } from '../conformance/wording.ts'

describe('markdownText', () => {
  it('keeps text on its one line and escapes what Markdown reads as markup', () => {
    expect(markdownText('dsh-session-conformance 0.1.0 (vectors under ./fuzz-out)')).toBe('dsh-session-conformance 0.1.0 (vectors under ./fuzz-out)')
    expect(markdownText('ev\n# Injected [x](https://e.example) `c` *b* a_b <i> |')).toBe('ev\\\\u000a\\# Injected \\[x\\](https://e.example) \\`c\\` \\*b\\* a\\_b \\<i\\> \\|')
  })
})

describe('plural', () => {
  it('words one in the singular and any other count in the plural', () => {
    expect([plural(1, 'event'), plural(0, 'event'), plural(2, 'class', 'classes')]).toEqual(['1 event', '0 events', '2 classes'])
  })
})

describe('shortened', () => {
  it('keeps a message of at most MESSAGE_MOST characters whole', () => {
    const message = 'm'.repeat(MESSAGE_MOST)
    expect(shortened(message)).toBe(message)
  })

  it('shows the first MESSAGE_MOST characters and counts the rest', () => {
    expect(shortened('abcdef', 4)).toBe('abcd… (2 more characters)')
    expect(shortened('abcde', 4)).toBe('abcd… (1 more character)')
  })

  it('never splits a surrogate pair', () => {
    expect(shortened('abc😀def', 4)).toBe('abc… (5 more characters)')
    expect(shortened('abcd😀ef', 4)).toBe('abcd… (4 more characters)')
  })
})
