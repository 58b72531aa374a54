// `check --known FILE`: findings a CI gate accepts for now. A file whose every finding that makes it
// invalid is accepted is known invalid, no failure of the run; any other finding, and any unchecked
// file, still fails it; an entry that matched nothing is named.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { entriesMatchingUnchecked, knownFindingsFrom, knownMatchers, withKnownFindings } from '../../conformance/check/known-findings.ts'
import type { Diagnostic, FileReport } from '../../conformance/check/check-file.ts'
import { runCliHere } from '../support/cli.ts'
import { errorsOf, schemaValidator } from '../support/schemas.ts'
import { tempFolder } from './support.ts'
import { text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

function report(status: FileReport['status'], codes: [severity: Diagnostic['severity'], code: string][], file = 'logs/a.jsonl'): FileReport {
  return {
    file, encoding: 'raw', status, outcome: status === 'unchecked' ? { verdict: 'unchecked', code: 'CHECK_IO_ERROR' } : { verdict: 'accepted', events: 3, tornTail: null, relations: [] },
    diagnostics: codes.map(([severity, code]) => ({ severity, code, message: 'm' })),
  }
}

describe('withKnownFindings', () => {
  // The third entry is shadowed by the first where both match: the first gives the reason, both are used.
  const known = knownMatchers([{ files: 'logs/*', code: 'TURN_*', reason: 'old turns' }, { files: '*', code: 'TORN_TAIL', reason: 'crashes happen' }, { files: '*', code: 'TURN_END_MISMATCH', reason: 'also' }])

  it('calls a file known invalid only when every finding that makes it invalid is accepted', () => {
    const used = new Set<number>()
    const both = withKnownFindings(report('invalid', [['error', 'TURN_NOT_OPEN'], ['error', 'TURN_END_MISMATCH']]), known, false, used)
    expect(both.status).toBe('known')
    expect(both.diagnostics.map(diagnostic => diagnostic.known)).toEqual(['old turns', 'old turns'])
    expect(withKnownFindings(report('invalid', [['error', 'TURN_NOT_OPEN'], ['error', 'STEP_NOT_OPEN']]), known, false, used).status).toBe('invalid')
    // The files glob matches the whole name, as check prints it.
    expect(withKnownFindings(report('invalid', [['error', 'TURN_NOT_OPEN']], 'other/logs/a.jsonl'), known, false, used).status).toBe('invalid')
    expect([...used].sort()).toEqual([0, 2])
    // A name holding a character check prints escaped is matched as printed: a glob copied from the line.
    const copied = knownMatchers([{ files: 'logs/ok\\u3164.jsonl', code: '*', reason: 'copied' }])
    expect(withKnownFindings(report('invalid', [['error', 'TURN_NOT_OPEN']], 'logs/ok\u3164.jsonl'), copied, false, new Set()).status).toBe('known')
  })

  it('needs a notice accepted only under --strict, marks accepted findings of a valid file, and never knows an unchecked one', () => {
    const used = new Set<number>()
    const noticed = report('invalid', [['error', 'TURN_NOT_OPEN'], ['notice', 'CARRIAGE_RETURN']])
    expect(withKnownFindings(noticed, known, false, used).status).toBe('known')
    expect(withKnownFindings(noticed, known, true, used).status).toBe('invalid')
    const torn = withKnownFindings(report('valid', [['notice', 'TORN_TAIL']]), known, false, used)
    expect(torn).toMatchObject({ status: 'valid', diagnostics: [{ known: 'crashes happen' }] })
    // A refusal (FMT-5) may be accepted too, for a gate over a store that holds logs of a newer version.
    const refused = withKnownFindings(report('refused', [['refusal', 'FORMAT_VERSION_NEWER']]), knownMatchers([{ files: '*', code: 'FORMAT_VERSION_*', reason: 'v1 rollout' }]), false, used)
    expect(refused).toMatchObject({ status: 'known', diagnostics: [{ known: 'v1 rollout' }] })
    expect(withKnownFindings(report('refused', [['refusal', 'FORMAT_VERSION_NEWER']]), known, false, used).status).toBe('refused')
    // What is left open decides: a refusal left open keeps a file refused, another finding makes it invalid.
    const rollout = knownMatchers([{ files: '*', code: 'FORMAT_*', reason: 'rollout' }])
    const writer = knownMatchers([{ files: '*', code: 'WRITER_*', reason: 'old writer' }])
    const both = report('refused', [['error', 'WRITER_HEADER_MEMBERS'], ['refusal', 'FORMAT_UNKNOWN_EVENT_TYPE']])
    expect(withKnownFindings(both, writer, false, used).status).toBe('refused')
    expect(withKnownFindings(both, rollout, false, used).status).toBe('invalid')
    const misplaced = report('invalid', [['error', 'HEADER_ID_MISMATCH'], ['refusal', 'FORMAT_UNKNOWN_EVENT_TYPE']])
    expect(withKnownFindings(misplaced, knownMatchers([{ files: '*', code: 'HEADER_ID_MISMATCH', reason: 'moved' }]), false, used).status).toBe('refused')
    expect(withKnownFindings(misplaced, rollout, false, used).status).toBe('invalid')
    const unread = report('unchecked', [['error', 'CHECK_IO_ERROR']])
    expect(withKnownFindings(unread, knownMatchers([{ files: '*', code: '*', reason: 'anything' }]), false, used)).toBe(unread)
    // Which entries it would have matched, for the warning of one that matched nothing else.
    const entries = knownMatchers([{ files: '*', code: 'CHECK_*', reason: 'a' }, { files: 'other/*', code: '*', reason: 'b' }, { files: '*', code: 'TURN_*', reason: 'c' }])
    expect(entriesMatchingUnchecked(unread, entries)).toEqual([0])
    expect(entriesMatchingUnchecked(report('invalid', [['error', 'TURN_NOT_OPEN']]), entries)).toEqual([])
  })
})

describe('a known-findings file', () => {
  const entry = { files: '*', code: 'X', reason: 'r' }
  const refusals: [document: unknown, why: string][] = [
    [[], 'expected a mapping with known'],
    [{ known: [], extra: 1 }, 'it has unknown members extra (it may have known)'],
    [{ known: {} }, 'known must be a list of findings'],
    [{ known: ['X'] }, 'known[0] must be a mapping with files, code and reason'],
    [{ known: [{ ...entry, why: 'w' }] }, 'known[0] has unknown members why (it may have files, code, reason)'],
    [{ known: [{ ...entry, files: '' }] }, 'known[0] needs files, a glob'],
    [{ known: [{ ...entry, code: 3 }] }, 'known[0] needs code, a glob'],
    [{ known: [{ ...entry, reason: ' ' }] }, 'known[0] needs a reason'],
  ]

  it('is refused, naming what is wrong, where the schema refuses it too', () => {
    const validate = schemaValidator('check-known')
    expect(validate({ known: [entry] }), errorsOf(validate)).toBe(true)
    expect(knownFindingsFrom({ known: [entry] }, 'k.yaml')).toEqual({ known: [entry] })
    for (const [document, why] of refusals) {
      expect(() => knownFindingsFrom(document, 'k.yaml'), why).toThrow(`k.yaml: not a known-findings file: ${why}`)
      expect(validate(document), why).toBe(false)
    }
  })
})

describe('check --known', () => {
  it('passes a run whose invalid files are all known, fails on any other finding, and names what matched nothing', async () => {
    const lines = turnLines()
    const clean = folder.write('clean.jsonl', text(lines))
    const noHeaderDepth = folder.write('old.jsonl', text([lines[0]!.replace(',"delegationDepth":0', ''), ...lines.slice(1)]))
    const knownFile = path.join(folder.dir, 'known.yaml')
    writeFileSync(knownFile, `known:\n  - files: '*/old.jsonl'\n    code: JSONL_HEADER_INVALID\n    reason: 'written before delegationDepth (U4)'\n  - files: '*'\n    code: NO_SUCH_CODE\n    reason: a typo\n`)
    const run = await runCliHere(['check', clean, noHeaderDepth, '--known', knownFile])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`${noHeaderDepth}: known invalid, decodeJsonl rejects it with JSONL_HEADER_INVALID, which hides any later fault of its decoding (check a mended copy to see them)`)
    expect(run.stdout).toContain('[known: written before delegationDepth (U4)]')
    expect(run.stdout).toContain('checked 2 files: 1 valid, 0 invalid, 1 known, 0 unchecked')
    expect(run.stderr).toBe(`warning: ${knownFile}: known[1] (files *, code NO_SUCH_CODE) matched no finding of a checked file: mended, or a typo (its files glob is matched against the names as printed above)\n`)

    const json = await runCliHere(['check', clean, noHeaderDepth, '--known', knownFile, '--format', 'json'])
    const document = JSON.parse(json.stdout) as Record<string, unknown>
    const validate = schemaValidator('check-report')
    expect(validate(document), errorsOf(validate)).toBe(true)
    expect(document).toMatchObject({ exitCode: 0, summary: { valid: 1, invalid: 0, known: 1 }, files: [{ status: 'valid' }, { status: 'known', diagnostics: [{ known: 'written before delegationDepth (U4)' }] }] })
    // What matched nothing is in the report too, for a dashboard to flag.
    expect(document['knownUnused']).toEqual([{ index: 1, files: '*', code: 'NO_SUCH_CODE', reason: 'a typo' }])

    const without = await runCliHere(['check', clean, noHeaderDepth])
    expect(without.code).toBe(1)
    expect(JSON.parse((await runCliHere(['check', clean, '--format', 'json'])).stdout)).not.toHaveProperty('knownUnused')
    writeFileSync(knownFile, 'known:\n  - files: "*"\n    code: JSONL_HEADER_INVALID\n')
    const broken = await runCliHere(['check', clean, '--known', knownFile])
    expect(broken).toMatchObject({ code: 2, stderr: `${knownFile}:2: not a known-findings file: known[0] needs a reason\n` })
    // A member name of the file's own is said escaped, on the one line: it cannot forge a verdict line.
    writeFileSync(knownFile, 'known: []\n"x\\e]0;T\\a\\nok.jsonl: valid": 1\n')
    const forged = await runCliHere(['check', clean, '--known', knownFile])
    expect(forged).toMatchObject({ code: 2, stderr: `${knownFile}:2: not a known-findings file: it has unknown members x\\u001b]0;T\\u0007\\u000aok.jsonl: valid (it may have known)\n` })
  })

  it('says an entry that matched only an unchecked file could not apply, not that it is a typo', async () => {
    const knownFile = path.join(folder.dir, 'unchecked-known.yaml')
    writeFileSync(knownFile, `known:\n  - files: '*'\n    code: CHECK_*\n    reason: unreadable for now\n`)
    const run = await runCliHere(['check', path.join(folder.dir, 'no-such.jsonl'), '--known', knownFile])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(`warning: ${knownFile}: known[0] (files *, code CHECK_*) matched only findings of unchecked files or folders, which --known never accepts: what was not checked fails the run until it is\n`)
    // A folder that holds no log is unchecked too.
    const empty = path.join(folder.dir, 'no-logs-here')
    mkdirSync(empty)
    const forFolder = await runCliHere(['check', empty, '--known', knownFile])
    expect(forFolder.stderr).toContain('matched only findings of unchecked files or folders')
  })
})
