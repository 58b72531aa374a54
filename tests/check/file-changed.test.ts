// A log a writer changes while check or audit reads it (conformance/check/check-file.ts, audit's
// readLog): each notes it first of all it finds, since what it read may be no state the file was ever in. Each case changes the file at
// a set point of the read, from inside the read itself (node:fs's readSync, wrapped below), so that no
// case races a writer.
import { appendFileSync, renameSync, statSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { checkFile, type FileReport } from '../../conformance/check/check-file.ts'
import { RequirementIndex } from '../../conformance/check/requirements.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { readLog } from '../../conformance/audit/command.ts'
import { buildAuditReport } from '../../conformance/audit/report.ts'
import { estimateCounter } from '../../conformance/audit/tokens.ts'
import { artifactLines, unwrappedToolResult } from './log-generator.ts'
import { text, turnLines } from './small-logs.ts'
import { check, openedRecall, tempFolder, zstdArtifact } from './support.ts'

/** What the next read of the test's file that returns bytes does after it, once. */
const during = vi.hoisted(() => ({ read: undefined as (() => void) | undefined, starts: 0 }))

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>()
  const changeAfter = <T>(read: T, gotBytes: boolean): T => {
    const change = during.read
    if (change !== undefined && gotBytes) {
      during.read = undefined
      change()
    }
    return read
  }
  // check reads in chunks (readSync); audit reads a file whole (readFileSync).
  const readSync = ((...args: Parameters<typeof actual.readSync>) => {
    // A read at offset 0: check's second read of a file starts there (its first reads on from where
    // the descriptor stands).
    if ((args as unknown[])[4] === 0) during.starts += 1
    const read = actual.readSync(...args)
    return changeAfter(read, read > 0)
  }) as typeof actual.readSync
  const readFileSync = ((...args: Parameters<typeof actual.readFileSync>) => {
    const read = actual.readFileSync(...args)
    return changeAfter(read, read.length > 0)
  }) as typeof actual.readFileSync
  return { ...actual, readSync, readFileSync, default: { ...actual, readSync, readFileSync } }
})

const folder = tempFolder()
afterAll(() => folder.remove())
afterEach(() => {
  during.read = undefined
})

const requirements = new RequirementIndex()

function changedNotices(report: FileReport): string[] {
  return report.diagnostics.filter(diagnostic => diagnostic.code === 'FILE_CHANGED').map(diagnostic => `${diagnostic.severity}: ${diagnostic.message}`)
}

/** The first turn of turnLines without its turn/end, and that line, which a writer appends later. */
const [TURN_END, OPEN_TURN] = [turnLines()[6] as string, turnLines().slice(0, 6)]

describe('a log that changes while check reads it', () => {
  it('is checked as read, with a notice first that says how it changed', () => {
    const file = folder.write('appended.jsonl', text(OPEN_TURN))
    const opened = statSync(file).size
    during.read = () => appendFileSync(file, `${TURN_END}\n`)
    const report = check(file)
    const read = statSync(file).size
    expect(read).toBeGreaterThan(opened)
    // The appended line came in the same sequential read: its event is counted.
    expect(report).toMatchObject({ status: 'valid', outcome: { verdict: 'accepted', events: 6, tornTail: null } })
    expect(report.diagnostics).toEqual([{
      severity: 'notice',
      code: 'FILE_CHANGED',
      message: `the file changed while check read it (${opened} bytes when opened, ${read} once read): the findings are of bytes that may be no state the file was ever in, and an unterminated last line may be a record still being written; check it again when no writer has it open`,
    }])
  })

  it('is invalid under --strict, as for every notice', () => {
    const file = folder.write('appended-strict.jsonl', text(OPEN_TURN))
    during.read = () => appendFileSync(file, `${TURN_END}\n`)
    const report = checkFile(file, { vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES, strict: true }, requirements)
    expect(report.status).toBe('invalid')
    expect(changedNotices(report)).toHaveLength(1)
  })

  it('is noted when written at the same length, by its time of change', () => {
    const file = folder.write('rewritten.jsonl', text(turnLines()))
    const size = statSync(file).size
    during.read = () => {
      writeFileSync(file, text(turnLines()))
      // A later write than the one the file was opened after, whatever the clock's grain.
      utimesSync(file, new Date(), new Date(statSync(file).mtimeMs + 60_000))
    }
    const report = check(file)
    expect(report.status).toBe('valid')
    expect(changedNotices(report)).toEqual([expect.stringContaining(`(${size} bytes when opened and once read, its modification time moved meanwhile)`)])
  })

  it('comes before the finding its change caused: a line cut part way reads as a torn tail', () => {
    const file = folder.write('cut.jsonl', text(turnLines()))
    during.read = () => truncateSync(file, text(turnLines()).length - 10)
    // The bytes were read before the cut: what was read is whole.
    const whole = check(file)
    expect(whole.status).toBe('valid')
    expect(whole.diagnostics.map(diagnostic => diagnostic.code)).toEqual(['FILE_CHANGED'])
    // Read after a writer has begun the line, and before it ended it.
    const growing = folder.write('growing.jsonl', text(OPEN_TURN))
    during.read = () => appendFileSync(growing, TURN_END.slice(0, 20))
    const partial = check(growing)
    expect(partial.diagnostics.map(({ severity, code }) => `${severity} ${code}`)).toEqual(['notice FILE_CHANGED', 'notice TORN_TAIL'])
  })

  it('gives no truncation for a torn tail that starts past the file\'s end once read', () => {
    const file = folder.write('shrunk.jsonl', `${text(OPEN_TURN)}${TURN_END.slice(0, 20)}`)
    const tailStart = text(OPEN_TURN).length
    during.read = () => truncateSync(file, 10)
    const report = check(file)
    expect(report.diagnostics.map(({ severity, code }) => `${severity} ${code}`)).toEqual(['notice FILE_CHANGED', 'notice TORN_TAIL'])
    expect(report.diagnostics[1]?.message).toBe(`recoverable torn tail from line 7 (byte ${tailStart}, unterminated) in the bytes read, at or past the file's end once read (10 bytes): a writer changed the file meanwhile, so no truncation applies to it as it is; check it again when no writer has it open`)
    // Cut at the tail's very start: the file holds none of it, and there is nothing to truncate.
    const atStart = folder.write('cut-at-tail.jsonl', `${text(OPEN_TURN)}${TURN_END.slice(0, 20)}`)
    during.read = () => truncateSync(atStart, tailStart)
    expect(check(atStart).diagnostics[1]?.message).toContain(`at or past the file's end once read (${tailStart} bytes)`)
    // Cut after the tail's start, the file still holds it: a writer truncates it there.
    const cut = folder.write('cut-inside-tail.jsonl', `${text(OPEN_TURN)}${TURN_END.slice(0, 20)}`)
    during.read = () => truncateSync(cut, tailStart + 5)
    expect(check(cut).diagnostics[1]?.message).toContain(`a writer truncates the artifact to byte ${tailStart} before it appends`)
  })

  it('is noted for a zstd log, which is read up to its length when opened', () => {
    const lines = turnLines()
    const bytes = zstdArtifact(OPEN_TURN, [5])
    const file = folder.write('appended.jsonl.zstd', bytes)
    during.read = () => appendFileSync(file, zstdArtifact([lines[0] as string, TURN_END], [1]).subarray(zstdArtifact([lines[0] as string], [1]).length))
    const report = check(file)
    expect(report).toMatchObject({ status: 'valid', outcome: { verdict: 'accepted', events: 5 } })
    expect(changedNotices(report)).toEqual([expect.stringContaining(`(${bytes.length} bytes when opened, ${statSync(file).size} once read)`)])
  })

  it('says nothing of a file no writer changed', () => {
    expect(changedNotices(check(folder.write('still.jsonl', text(turnLines()))))).toEqual([])
    expect(changedNotices(check(folder.write('still.jsonl.zstd', zstdArtifact(turnLines(), [2]))))).toEqual([])
  })

  it('leaves the file unchecked, unreadable, when its second read for LEGACY-11 no longer reaches the line asked', () => {
    const lines = [...artifactLines('legacy-21', 2000, 21, { compaction: 0.15, staleBracket: 0.1, prune: 0.6 })].map(unwrappedToolResult)
    const file = folder.write('legacy-cut.jsonl', text(lines))
    during.read = () => truncateSync(file, text(lines.slice(0, 3)).length)
    const report = check(file)
    expect(report).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_IO_ERROR' } })
    expect(report.diagnostics.map(({ severity, code }) => `${severity} ${code}`)).toEqual(['notice FILE_CHANGED', 'error CHECK_IO_ERROR'])
    expect(report.diagnostics[1]?.message).toMatch(/^not checked: line (\d+) could not be checked: reading the file again for the message ids before line \1 \(LEGACY-11\) did not reach that line: the file changed while it was checked$/)
    // The recall alone, on the file as it now is.
    const { recall, close } = openedRecall(file)
    expect(() => recall(10, 'legacy-21')).toThrow(/did not reach that line/)
    close()
  })
})

describe('a log whose name is given to another file, or taken away, while check reads it', () => {
  // A legacy rewrite makes check read the file a second time (LEGACY-11), after the first chunk.
  const lines = [...artifactLines('legacy-21', 2000, 21, { compaction: 0.15, staleBracket: 0.1, prune: 0.6 })].map(unwrappedToolResult)
  const untouched = (): FileReport => check(folder.write('legacy-untouched.jsonl', text(lines)))

  it('is read again from its start for the message ids, and a log with no legacy rewrite is not', () => {
    during.starts = 0
    expect(untouched().status).toBe('valid')
    expect(during.starts).toBe(1)
    during.starts = 0
    expect(check(folder.write('current.jsonl', text(turnLines()))).status).toBe('valid')
    expect(during.starts).toBe(0)
  })

  it('is checked whole from the file it opened, read again through the same descriptor: rotated, replaced or deleted', () => {
    const expected = untouched()
    expect(expected.status).toBe('valid')
    const changes: Record<string, (file: string) => void> = {
      rotated: file => renameSync(file, `${file}.1`),
      // A writer that writes a new file and renames it over the old one; this one's ids differ.
      replaced: file => renameSync(folder.write('other.jsonl', text(lines).replaceAll('"id":"', '"id":"x')), file),
      deleted: file => unlinkSync(file),
    }
    for (const [name, change] of Object.entries(changes)) {
      const file = folder.write(`legacy-${name}.jsonl`, text(lines))
      during.read = () => change(file)
      const report = check(file)
      expect(report.outcome, name).toEqual(expected.outcome)
      expect(report.diagnostics, name).toEqual([])
    }
  })

  it('is unchecked, as unreadable, when a zstd log is cut short of the size it had when opened', () => {
    // Past check's first window of 1 MiB, which the first read fills before the cut.
    const bytes = zstdArtifact(turnLines(`[{"type":"text","text":"${'x'.repeat(1_500_000)}"}]`), [1])
    const file = folder.write('cut.jsonl.zstd', bytes)
    during.read = () => truncateSync(file, 40)
    const report = check(file)
    expect(report).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_IO_ERROR' } })
    expect(report.diagnostics).toEqual([{ severity: 'error', code: 'CHECK_IO_ERROR', message: expect.stringMatching(new RegExp(`^cannot read: the file was cut while it was read: ${bytes.length} bytes when opened, none past byte \\d+; check it again when no writer has it open$`)) }])
    // What the first read took before the cut is whole: cut after it, a small log is checked as read.
    const small = folder.write('cut-small.jsonl.zstd', zstdArtifact(turnLines(), [1]))
    during.read = () => truncateSync(small, 40)
    expect(check(small)).toMatchObject({ status: 'valid', diagnostics: [{ code: 'FILE_CHANGED' }] })
  })
})

describe('a log that changes while audit reads it', () => {
  it('is audited as read, with a warning first in Raw-fact integrity that says how it changed', () => {
    const file = folder.write('audit-appended.jsonl', text(OPEN_TURN))
    const opened = statSync(file).size
    during.read = () => appendFileSync(file, `${TURN_END}\n`)
    const log = readLog(file)
    const read = statSync(file).size
    // Read up to its size when opened, the size held to audit's memory limit.
    expect(log.bytes.length).toBe(opened)
    expect(log.fileChange).toBe(`the file changed while audit read it (${opened} bytes when opened, ${read} once read): the findings are of bytes that may be no state the file was ever in, and an unterminated last line may be a record still being written; audit it again when no writer has it open`)
    const rawFacts = buildAuditReport(log, estimateCounter('the test asks for it')).rows[0]
    expect(rawFacts).toMatchObject({ verdict: 'warn', summary: 'The file changed while audit read it: what was read may be no state it was ever in (see the warnings).' })
    expect(rawFacts?.evidence[0]).toMatchObject({ mark: 'warn', text: log.fileChange })
  })

  it('comes first also when the log it read is rejected', () => {
    const file = folder.write('audit-cut.jsonl', text(turnLines()))
    during.read = () => truncateSync(file, 10)
    const log = readLog(file)
    // The read was whole; the report is of the bytes a read after the cut gets, whose header is cut.
    const report = buildAuditReport({ ...log, bytes: log.bytes.subarray(0, 10) }, estimateCounter('the test asks for it'))
    expect(report.rows[0]?.evidence.map(item => item.mark)).toEqual(['warn', 'fail'])
    expect(report.rows[0]?.verdict).toBe('fail')
  })

  it('says nothing of a file no writer changed', () => {
    expect(readLog(folder.write('audit-still.jsonl', text(turnLines()))).fileChange).toBeUndefined()
  })
})
