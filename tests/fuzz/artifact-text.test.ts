// The decodeJsonl probe's artifacts edited where chapter 19 says what a reader makes of text no writer
// writes (conformance/fuzz/artifact-text.ts): one plan in four, each edit drawn, and the reference
// decodes each as the chapter says, checked by hand on a small artifact.
import { describe, expect, it } from 'vitest'
import { chunkRun, HEADER } from '../support/chunk-batches.ts'
import { withArtifactTextEdit } from '../../conformance/fuzz/artifact-text.ts'
import { reference } from '../../reference/index.ts'

const EVENTS = [
  ...chunkRun(['a', 'b', 'c']),
  { type: 'step/end', seq: 5, time: 20, data: { turn: 1, step: 1 } },
  { type: 'turn/end', seq: 6, time: 21, data: { turn: 1, reason: { kind: 'completed' } } },
]
const encoded = reference.encodeJsonl({ header: HEADER, batches: [EVENTS] })
const TEXT = encoded.ok ? encoded.value.text : ''
// Lines: 1 header, 2 turn/start, 3 step/start, 4 the row of seqs 2 to 4, 5 step/end, 6 turn/end.

/** The 1-based number of the line holding the turn/end (after a blank line inserted before it, one more). */
const turnEndLine = (text: string): number => text.split('\n').findIndex(line => line.includes('"type":"turn/end"')) + 1

/** Which edit made `text` from TEXT, told from its shape. */
function editOf(text: string): string {
  if (text.includes('[{"type":"turn/end"')) return 'wrapped turn end'
  if (text.endsWith('\n\n')) return 'empty last line'
  if (/"seq":(true|false)/.test(text)) return 'boolean seq'
  if (text.includes('"type":"Text-Chunks"')) return 'row tag case'
  if (text.includes('\r\n')) return 'crlf'
  if (text.includes('"SandboxMode"')) return 'header member'
  if (/"(sandboxMode|approvalPolicy)"/.test(text)) return 'retired member'
  if (text.includes('"version":-1')) return 'older version'
  if (!text.startsWith('{"type":"session"') || /"createdAt":(-0|")|"delegationDepth":null/.test(text)) return 'header'
  if (!text.endsWith('\n')) return 'whitespace tail'
  if (text.includes('"time0":-')) return 'negative time0'
  if (/[\f\v\u00a0]/.test(text)) return 'unicode space'
  return 'lenient json'
}

/** The 1-based number of the line the edit broke: the blank one (a CR alone) for crlf, else the first that differs from TEXT's. */
function brokenLine(text: string): number {
  const lines = text.split('\n')
  if (text.includes('\r\n')) return lines.indexOf('\r') + 1
  const original = TEXT.split('\n')
  return lines.findIndex((line, index) => line !== original[index]) + 1
}

describe('artifact text edits', () => {
  it('are drawn for about one plan in four, each edit, and decoded as chapter 19 says', () => {
    const edits = new Set<string>()
    const headerFaults = new Set<string>()
    const booleanSeqLines = new Set<number>()
    const retiredMembers = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 800; seed += 1) {
      const text = withArtifactTextEdit(TEXT, seed)
      if (text === undefined) continue
      edited += 1
      const edit = editOf(text)
      edits.add(edit)
      const decoded = reference.decodeJsonl({ text })
      const line = brokenLine(text)
      if (edit === 'header') {
        // JSONL-6: a header line without type, with createdAt -0 (no safe integer, JSON-3) or "1" (no
        // number), or with delegationDepth null (no safe integer).
        expect(decoded).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID', line: 1 } })
        headerFaults.add(text.split('\n')[0]!.replace(/"id":"s"|\d+/g, ''))
      } else if (edit === 'header member') {
        // JSONL-6 step 5 names sandboxMode, and names compare exactly; JSONL-7 drops any other member.
        expect(decoded).toEqual({ ok: true, value: { header: { ...HEADER, delegationDepth: 0 }, events: EVENTS, tornTail: null } })
      } else if (edit === 'retired member') {
        // JSONL-6 step 5: either retired member, whatever its value, once steps 1 to 4 pass.
        expect(decoded).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_RETIRED_FIELD', line: 1 } })
        retiredMembers.add(text.match(/"(sandboxMode|approvalPolicy)"/)![1]!)
      } else if (edit === 'older version') {
        // JSONL-6 step 3, FMT-2: a numeric version below 0 is refused as older, before the other checks.
        expect(decoded).toMatchObject({ ok: false, error: { code: 'FORMAT_VERSION_OLDER', line: 1 } })
      } else if (edit === 'whitespace tail') {
        // JSONL-12: any byte after the last line feed is an unterminated tail, at the next line.
        expect(decoded).toMatchObject({ ok: true, value: { events: EVENTS, tornTail: { line: 7, offset: Buffer.byteLength(TEXT), reason: 'unterminated' } } })
      } else if (edit === 'empty last line') {
        // JSONL-9: the empty line 7 is no JSON text; JSONL-12: with no turn/end after it, it is the torn tail.
        expect(decoded).toMatchObject({ ok: true, value: { events: EVENTS, tornTail: { line: 7, offset: Buffer.byteLength(TEXT), reason: 'JSONL_LINE_UNPARSABLE' } } })
      } else if (edit === 'wrapped turn end') {
        // JSONL-11 step 2: the array on line 6 is one event that is no object, so no turn/end: the
        // unparsable line before it is the torn tail, and the events before that line are kept.
        const eventsBefore = [0, 0, 0, 1, 2, 5][line]
        expect(decoded, edit).toMatchObject({ ok: true, value: { events: EVENTS.slice(0, eventsBefore), tornTail: { line, reason: 'JSONL_LINE_UNPARSABLE' } } })
        expect(text.split('\n')[5]).toBe(`[${TEXT.split('\n')[5]}]`)
      } else if (edit === 'boolean seq' || edit === 'row tag case') {
        // JSONL-10: the turn/start's or step/start's seq false or true is no number; the row tagged
        // "Text-Chunks" is one event (JSONL-9 step 4) with no seq at all. A seq gap, before the turn/end.
        expect(edit === 'row tag case' ? [4] : [2, 3]).toContain(line)
        if (edit === 'boolean seq') booleanSeqLines.add(line)
        expect(text.split('\n')[line - 1]).toBe(TEXT.split('\n')[line - 1]!.replace(/"seq":([01]),/, (_, seq: string) => `"seq":${seq === '1'},`).replace('"text-chunks"', '"Text-Chunks"'))
        expect(decoded, edit).toMatchObject({ ok: false, error: { code: 'JSONL_SEQ_GAP', line } })
      } else if (edit === 'negative time0') {
        // ROW-1, ROW-2: time0 -12 and dt [1, 1] give -12, -11, -10.
        expect(decoded.ok && decoded.value.events.slice(2, 5).map(event => (event as { time: number }).time)).toEqual([-12, -11, -10])
      } else if (line < turnEndLine(text)) {
        // JSONL-9, JSONL-11: an unparsable line with a turn/end after it is committed damage.
        expect(decoded, edit).toMatchObject({ ok: false, error: { code: 'JSONL_LINE_UNPARSABLE', line } })
      } else {
        // JSONL-12: with no turn/end after it, the tail from that line is torn.
        expect(decoded, edit).toMatchObject({ ok: true, value: { tornTail: { line, reason: 'JSONL_LINE_UNPARSABLE' } } })
      }
    }
    expect(edited).toBeGreaterThan(150)
    expect(booleanSeqLines).toEqual(new Set([2, 3]))
    expect(edited).toBeLessThan(260)
    expect(headerFaults.size).toBe(4)
    expect(retiredMembers).toEqual(new Set(['sandboxMode', 'approvalPolicy']))
    expect([...edits].sort()).toEqual([
      'boolean seq', 'crlf', 'empty last line', 'header', 'header member', 'lenient json', 'negative time0', 'older version', 'retired member',
      'row tag case', 'unicode space', 'whitespace tail', 'wrapped turn end',
    ])
  })
})
