// The wording helpers every report uses.
import { mkdtempSync, openSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { characterCount, fileErrorMessage, joinedLines, likelyMeant, markdownText, MESSAGE_MOST, plural, printable, printableLines, printableOutput, QUOTE_MOST, reportMessage, shortened, shortenedAtStart } from '../conformance/wording.ts'

describe('markdownText', () => {
  it('keeps text on its one line and escapes what Markdown reads as markup', () => {
    expect(markdownText('dsh-session-conformance 0.1.0 (vectors under ./fuzz-out)')).toBe('dsh-session-conformance 0.1.0 (vectors under ./fuzz-out)')
    expect(markdownText('ev\n# Injected [x](https://e.example) `c` *b* a_b <i> |')).toBe('ev\\\\u000a\\# Injected \\[x\\](https://e.example) \\`c\\` \\*b\\* a\\_b \\<i\\> \\|')
    // An entity reference would show as the character it names.
    expect(markdownText('a &lt;b&gt; &amp; c')).toBe('a \\&lt;b\\&gt; \\&amp; c')
  })
})

describe('likelyMeant', () => {
  it('takes a word extended by a dash-joined part before edits, and guesses nothing between two as likely', () => {
    expect(likelyMeant('fork-width-65-rejected-writer', ['fork-width-64-accepted-writer', 'fork-width-65-rejected-writer-renamed'])).toBe('fork-width-65-rejected-writer-renamed')
    expect(likelyMeant('env-seq-gap', ['env-seq-gap-writer', 'env-seq-gap-reader'])).toBeUndefined()
    expect(likelyMeant('--chapters', ['--chapter', '--case'])).toBe('--chapter')
    // A word that holds an option but is no dash-joined extension of it is no near miss.
    expect(likelyMeant('adapter.py', ['--adapter', '--adapter-cmd'])).toBeUndefined()
  })
})

describe('characterCount', () => {
  it('counts a surrogate pair as one character and a lone surrogate as one, as a string\'s iterator does', () => {
    for (const text of ['', 'abc', 'a\uD83D\uDE00b', '\uD800', '\uDC00\uD800', 'x\uD83D\uDE00\uD83D']) expect(characterCount(text)).toBe([...text].length)
  })
})

describe('joinedLines', () => {
  it('makes each line break and the blanks around it one space, and keeps other blanks', () => {
    expect(joinedLines('a \t\r\n  b\rc  d\n')).toBe('a b c  d ')
  })

  it('takes linear time on a long run of blanks, which a message of an adapter may hold', () => {
    // The pattern once went to the run's end from each of its blanks: 100,000 blanks took 4 s.
    const started = performance.now()
    expect(joinedLines(`x${' '.repeat(150_000)}y`)).toHaveLength(150_002)
    expect(performance.now() - started).toBeLessThan(2000) // the quadratic pattern: about 18 s
  })
})

describe('printable', () => {
  it('shows controls, separators and every format character as escapes: bidi, zero-width, tag characters', () => {
    expect(printable('a\u001b[2Jb\r\n\u2028\u202eevil\u2066')).toBe('a\\u001b[2Jb\\u000d\\u000a\\u2028\\u202eevil\\u2066')
    // Invisible text: a zero-width space and joiner, a word joiner, a BOM, a soft hyphen, tag characters.
    expect(printable('keep\u200b\u200d\u2060\ufeff\u00ad\u{E0049}\u{E007F}!')).toBe('keep\\u200b\\u200d\\u2060\\ufeff\\u00ad\\u{e0049}\\u{e007f}!')
    expect(printable('ünïcödé ✓ 😀 tab-free')).toBe('ünïcödé ✓ 😀 tab-free')
    // A lone surrogate, either half, is shown escaped; a pair is a character like any other.
    expect(printable('a\ud800b\udfffc\ud83d\ude00')).toBe('a\\ud800b\\udfffc😀')
  })

  it('shows the other characters Unicode draws as nothing as escapes, but keeps variation selectors', () => {
    // A Hangul filler, its halfwidth form, a combining grapheme joiner: `okㅤ.jsonl` looked like
    // `ok.jsonl`.
    expect(printable('ok\u3164.jsonl ok\uffa0 ok\u034f ok\u115f')).toBe('ok\\u3164.jsonl ok\\uffa0 ok\\u034f ok\\u115f')
    expect(printable('☑️ ⏭️ 葛\u{E0100} ᠠ\u180B')).toBe('☑️ ⏭️ 葛\u{E0100} ᠠ\u180B')
  })

  it('keeps the line feeds of a text of many lines', () => {
    expect(printableLines('one\n\u001btwo\r\n')).toBe('one\n\\u001btwo\\u000d\n')
    // An adapter's stderr: CRLF line ends are line ends, a lone CR stays visible, tabs stay.
    expect(printableOutput('Traceback:\r\n\tFile "a.py"\r\nhalf\rway')).toBe('Traceback:\n\tFile "a.py"\nhalf\\u000dway')
  })
})

describe('fileErrorMessage', () => {
  const thrownBy = (action: () => unknown): unknown => {
    try {
      action()
    } catch (error) {
      return error
    }
    throw new Error('expected the action to throw')
  }

  it('says that a path does not exist, naming it when it is not the one given, and keeps other messages', () => {
    const missing = thrownBy(() => statSync('/no/such/dsh-log.jsonl'))
    expect(fileErrorMessage(missing, '/no/such/dsh-log.jsonl')).toBe('no such file or folder')
    expect(fileErrorMessage(missing, 'logs/')).toBe('no such file or folder: /no/such/dsh-log.jsonl')
    expect(fileErrorMessage(new Error('EACCES: permission denied'), 'a.jsonl')).toBe('EACCES: permission denied')
    expect(fileErrorMessage('a string', 'a.jsonl')).toBe('a string')
  })

  it('says that a path that does not lead anywhere is a link, and to what', () => {
    const folder = mkdtempSync(join(tmpdir(), 'dangling-'))
    try {
      const link = join(folder, 'broken.jsonl')
      symlinkSync('/no/such/target.jsonl', link)
      expect(fileErrorMessage(thrownBy(() => statSync(link)), link)).toBe('a link to /no/such/target.jsonl, which leads to no file or folder')
      expect(fileErrorMessage(thrownBy(() => openSync(link, 'r')), link)).toBe('a link to /no/such/target.jsonl, which leads to no file or folder')
    } finally {
      rmSync(folder, { recursive: true })
    }
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

  it('never splits a surrogate pair, and counts it as one character', () => {
    expect(shortened('abc😀def', 4)).toBe('abc… (4 more characters)')
    expect(shortened('abcd😀ef', 4)).toBe('abcd… (3 more characters)')
  })
})

describe('shortenedAtStart', () => {
  it('leaves out the start, never inside a surrogate pair, counting a pair as one character', () => {
    expect(shortenedAtStart('abcdef', 10)).toBe('abcdef')
    expect(shortenedAtStart('😀😀abcd', 4)).toBe('(2 characters before) …abcd')
    expect(shortenedAtStart('😀😀abc', 4)).toBe('(2 characters before) …abc')
  })
})

describe('reportMessage', () => {
  const long = (length: number, unit = 'x'): string => unit.repeat(length)

  it('cuts each long quoted value past QUOTE_MOST characters and keeps what the message says of it', () => {
    const message = `event type ${JSON.stringify(long(250))} is unknown, and member ${JSON.stringify(long(300, 'y'))} too`
    expect(reportMessage(message)).toBe(`event type "${long(QUOTE_MOST)}…" (50 more characters) is unknown, and member "${long(QUOTE_MOST, 'y')}…" (100 more characters) too`)
  })

  it('leaves short messages and short quoted values as they are', () => {
    expect(reportMessage('event type "acme/x" is unknown')).toBe('event type "acme/x" is unknown')
    const spaced = `${long(300, ' ')}"short"`
    expect(reportMessage(spaced)).toBe(spaced)
  })

  it('cuts a quoted value as it is written, never splitting a surrogate pair or leaving the closing quote escaped', () => {
    // 199 characters, then a pair: the cut ends before the pair rather than split it.
    const value = `${long(199)}😀${long(100)}`
    expect(reportMessage(`type ${JSON.stringify(value)}`)).toBe(`type "${long(199)}…" (${value.length - 199} more characters)`)
    // An escape is counted as written: 250 line feeds are 500 characters in the message.
    expect(reportMessage(`type ${JSON.stringify('\n'.repeat(250))}`)).toBe(`type "${'\\n'.repeat(100)}…" (300 more characters)`)
    // The 200th character is a backslash: the cut comes before it, or the closing quote would be escaped.
    expect(reportMessage(`type "${long(199)}\\"${long(100)}"`)).toBe(`type "${long(199)}…" (102 more characters)`)
  })

  it('cuts a quoted text that is no JSON string too, and leaves a quote nothing closes to the cut of the whole', () => {
    expect(reportMessage(`"${long(250)}\\q"`)).toBe(`"${long(200)}…" (52 more characters)`)
    expect(reportMessage(`event type "${long(300)}`)).toBe(`event type "${long(300)}`)
    expect(reportMessage(long(MESSAGE_MOST + 5))).toBe(`${long(MESSAGE_MOST)}… (5 more characters)`)
  })

  it('reads a message in one pass: a 20 MB value, and a quote left open by escaped quotes, take no time to speak of', () => {
    // A regular expression over the first ran out of stack; over the second it took time quadratic in its length.
    expect(reportMessage(`event type "${long(20_000_000)}" is unknown`)).toBe(`event type "${long(200)}…" (19999800 more characters) is unknown`)
    const openQuote = `event type "${'\\"'.repeat(200_000)}\\" is unknown`
    expect(reportMessage(openQuote)).toBe(`${openQuote.slice(0, MESSAGE_MOST)}… (${openQuote.length - MESSAGE_MOST} more characters)`)
  })
})
