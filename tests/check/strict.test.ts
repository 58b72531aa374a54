// `check --strict`: a notice (a recoverable torn tail, CR line ends, ...) makes its file invalid, for a
// gate that wants each log whole; without it a notice leaves the file valid (exit 0).
import { afterAll, describe, expect, it } from 'vitest'
import { parseCheckOptions } from '../../conformance/check/options.ts'
import { tempFolder } from './support.ts'
import { runChild, text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

describe('check --strict', () => {
  it('is a flag: no value, given once', () => {
    expect(parseCheckOptions(['log.jsonl', '--strict'])).toMatchObject({ strict: true, writer: false })
    expect(parseCheckOptions(['log.jsonl'])).toMatchObject({ strict: false })
    expect(parseCheckOptions(['log.jsonl', '--strict=yes'])).toEqual({ error: '--strict takes no value' })
    expect(parseCheckOptions(['log.jsonl', '--strict', '--strict'])).toEqual({ error: '--strict is given twice' })
  })

  it('makes a file with a notice invalid (exit 1), and leaves one without any valid', () => {
    const lines = turnLines()
    const torn = folder.write('torn.jsonl', `${text(lines)}{"type":"turn/st`)
    const clean = folder.write('clean.jsonl', text(lines))
    const lenient = runChild([torn, clean])
    expect(lenient.status).toBe(0)
    expect(lenient.stdout).toContain(`${torn}: valid, ${lines.length - 1} events, recoverable torn tail`)
    const strict = runChild([torn, clean, '--strict'])
    expect(strict.status).toBe(1)
    expect(strict.stdout).toContain(`${torn}: invalid, ${lines.length - 1} events, 1 notice (--strict), recoverable torn tail`)
    expect(strict.stdout).toContain(`${clean}: valid, ${lines.length - 1} events`)
    expect(strict.stdout).toContain('checked 2 files: 1 valid, 1 invalid, 0 unchecked')
    const json = runChild([torn, '--strict', '--format', 'json'])
    expect(JSON.parse(json.stdout)).toMatchObject({ strict: true, exitCode: 1, summary: { invalid: 1 }, files: [{ status: 'invalid', outcome: { verdict: 'accepted' } }] })
  })
})
