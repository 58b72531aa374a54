// JSONL storage over generated logs (spec chapter 19): what a writer encodes, a reader decodes to the
// same header and events, packed or not; the reference packs as a second writer does; and a crash that tears the artifact at any byte leaves a
// readable prefix that resumes into a valid log.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { batchCutsArbitrary, generatedLogArbitrary, splitIntoBatches, type GeneratedLog, type LogEvent } from '../../conformance/generators/index.ts'
import { batchRecords } from './row-writer.ts'
import { accepted, expectNoViolations, runs } from './support.ts'

const logWithBatches = generatedLogArbitrary({ maxSize: 100 }).chain(log => batchCutsArbitrary(log.events.length).map(cuts => ({ log, cuts })))

/** JSONL-5's members, in its order; a header member chapter 03 does not name (META-9) is not written. */
const HEADER_LINE_MEMBERS = ['version', 'id', 'createdAt', 'cwd', 'parentSession', 'seedLength', 'origin', 'delegationDepth', 'agentPreset']

/** The header as JSONL-7 decodes it from the line a writer writes. */
function storedHeader(log: GeneratedLog): Record<string, unknown> {
  return Object.fromEntries(HEADER_LINE_MEMBERS.flatMap(member => (member in log.header ? [[member, log.header[member as keyof typeof log.header]]] : [])))
}

/** JSONL-5: the header line a writer writes. */
function headerLine(log: GeneratedLog): string {
  return JSON.stringify({ type: 'session', ...storedHeader(log) })
}

/** A writer that never packs (ROW-6 allows it): one verbatim line per event. */
function verbatimText(log: GeneratedLog): string {
  return [headerLine(log), ...log.events.map(event => JSON.stringify(event))].map(line => `${line}\n`).join('')
}

function packedText(log: GeneratedLog, cuts: readonly number[]): string {
  return accepted(reference.encodeJsonl({ header: log.header, batches: splitIntoBatches(log.events, cuts) }), 'encodeJsonl').text
}

describe('JSONL storage', () => {
  it('P10: encode then decode is the identity, with and without packed chunk rows', () => {
    fc.assert(fc.property(logWithBatches, ({ log, cuts }) => {
      const packed = packedText(log, cuts)
      const verbatim = verbatimText(log)
      expect(packed.startsWith(`${headerLine(log)}\n`)).toBe(true)
      for (const text of [packed, verbatim]) {
        const decoded = accepted(reference.decodeJsonl({ text }), 'decodeJsonl')
        expect(decoded.tornTail).toBeNull()
        expect(decoded.header).toEqual(storedHeader(log))
        expect(JSON.stringify(decoded.events)).toBe(JSON.stringify(log.events))
      }
      const lines = (text: string): number => text.split('\n').length
      expect(lines(packed)).toBeLessThanOrEqual(lines(verbatim))
      if (lines(packed) < lines(verbatim)) expect(packed).toMatch(/"type":"(text|reasoning|tool-call)-chunks"/)
    }), runs(150))
  })

  it('P10b: the reference writes exactly what a second writer, written from ROW-5 to ROW-7 and JSONL-8, writes', () => {
    fc.assert(fc.property(logWithBatches, ({ log, cuts }) => {
      const records = splitIntoBatches(log.events, cuts).flatMap(batch => batchRecords(batch as unknown as Record<string, unknown>[]))
      const expected = [headerLine(log), ...records.map(record => JSON.stringify(record))].map(line => `${line}\n`).join('')
      expect(packedText(log, cuts)).toBe(expected)
    }), runs(150))
  })

  it('P11: a tear at any byte leaves the complete lines, and that prefix resumes into a valid log', () => {
    // The cut is drawn over the whole artifact after the header line, and half the time it tears off
    // only a line feed, leaving a whole record unterminated (which a reader must still drop, JSONL-12).
    const torn = logWithBatches.chain(sample => {
      const bytes = Buffer.from(packedText(sample.log, sample.cuts), 'utf8')
      const headerEnd = bytes.indexOf(0x0a) + 1
      const lineFeeds = [...bytes.subarray(headerEnd).entries()].filter(([, byte]) => byte === 0x0a).map(([index]) => headerEnd + index)
      const anyByte = fc.integer({ min: headerEnd, max: bytes.length })
      const cut = lineFeeds.length === 0 ? anyByte : fc.oneof(anyByte, fc.constantFrom(...lineFeeds))
      return cut.map(at => ({ ...sample, bytes, at }))
    })
    fc.assert(fc.property(torn, ({ log, bytes, at: cut }) => {
      const kept = bytes.subarray(0, cut)
      const decoded = accepted(reference.decodeJsonl({ base64: kept.toString('base64') }), 'decodeJsonl of a torn artifact')
      const committed = kept.lastIndexOf(0x0a) + 1
      const whole = accepted(reference.decodeJsonl({ base64: kept.subarray(0, committed).toString('base64') }), 'decodeJsonl')
      expect(decoded.events).toEqual(whole.events)
      expect(decoded.events).toEqual(log.events.slice(0, decoded.events.length))
      expect(decoded.tornTail).toEqual(committed === cut ? null : { line: kept.subarray(0, committed).toString('utf8').split('\n').length, offset: committed, reason: 'unterminated' })
      const resumed = accepted(reference.resume({ header: decoded.header, events: decoded.events, now: 1_790_000_000_000 }), 'resume') as LogEvent[]
      expectNoViolations({ header: log.header, events: resumed })
    }), runs(150))
  })
})
