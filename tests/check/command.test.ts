// check as a command: its exit status, the paths it takes (folders walked, links followed, each file
// once, a pipe), the storage layout a session.jsonl must sit in (JSONL-3), and a file it cannot read.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { runCheck } from '../../conformance/check/command.ts'
import { parseCheckOptions } from '../../conformance/check/options.ts'
import { findArtifacts } from '../../conformance/check/walk.ts'
import { UNDECODABLE_NAME } from '../../conformance/wording.ts'
import type { FileReport } from '../../conformance/check/check-file.ts'
import { check, tempFolder, zstdArtifact } from './support.ts'
import { permissionsUser, runChild, sessionLines, text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

describe('exit status', () => {
  it('is 0 for valid files, 1 when one is invalid, 2 for a usage error or a missing path', () => {
    const valid = folder.write('exit-valid.jsonl', text(turnLines()))
    const invalid = folder.write('exit-invalid.jsonl', text(turnLines().slice(0, 1).concat('{"type":"turn/end","seq":0,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}')))
    const printed: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line))
    const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void printed.push(line))
    try {
      expect(runCheck([valid])).toBe(0)
      expect(runCheck([valid, invalid])).toBe(1)
      expect(printed.join('\n')).toContain(`${invalid}:2: error TURN_NOT_OPEN (TURN-6) at seq 0:`)
      expect(runCheck([valid, `${folder.dir}/no-such-file.jsonl`])).toBe(2)
      expect(runCheck(['--format', 'yaml', valid])).toBe(2)
      expect(runCheck([])).toBe(2)
    } finally {
      log.mockRestore()
      error.mockRestore()
    }
  })

  it('is 2 for a log this reader refuses (FMT-5), which is reported as refused, not as damage', () => {
    const newer = folder.write('refused-newer.jsonl', text(turnLines()).replace('"version":0', '"version":1'))
    const run = runChild([newer, '--format', 'json'])
    expect(run.status).toBe(2)
    const document = JSON.parse(run.stdout) as { vocabulary: string; summary: Record<string, number>; files: FileReport[] }
    expect(document.summary).toMatchObject({ files: 1, invalid: 0, refused: 1 })
    expect(document.vocabulary).toBe('v0-pinned')
    expect((JSON.parse(runChild([newer, '--format', 'json', '--vocabulary', 'v0-rc8']).stdout) as { vocabulary: string }).vocabulary).toBe('v0-rc8')
    expect(document.files[0]).toMatchObject({
      status: 'refused',
      outcome: { verdict: 'rejected', operation: 'decodeJsonl', code: 'FORMAT_VERSION_NEWER' },
      diagnostics: [{ severity: 'refusal', code: 'FORMAT_VERSION_NEWER', requirement: 'JSONL-6', line: 1 }],
    })
    const said = runChild([newer]).stdout
    expect(said).toContain(`${newer}: refused, decodeJsonl refuses it with FORMAT_VERSION_NEWER: the log may be intact, but this reader cannot read it`)
    expect(said).toContain(`${newer}:1: refusal FORMAT_VERSION_NEWER (JSONL-6): `)
    expect(said).toContain('checked 1 file: 0 valid, 0 invalid, 1 refused, 0 unchecked')
    // A refusal comes before what --strict makes of a notice: CR line ends leave the file refused.
    const crlf = folder.write('refused-crlf.jsonl', text(turnLines()).replace('"version":0', '"version":1').replaceAll('\n', '\r\n'))
    const strict = runChild([crlf, '--strict', '--format', 'json'])
    expect(strict.status).toBe(2)
    expect((JSON.parse(strict.stdout) as { files: FileReport[] }).files[0]).toMatchObject({ status: 'refused', diagnostics: [{ severity: 'refusal' }, { severity: 'notice', code: 'CARRIAGE_RETURN' }] })
    const known = folder.write('known-newer.yaml', "known:\n  - files: '*'\n    code: FORMAT_VERSION_*\n    reason: the v1 rollout\n")
    const accepted = runChild([newer, '--known', known])
    expect(accepted.status).toBe(0)
    expect(accepted.stdout).toContain(`${newer}: known refused, decodeJsonl refuses it with FORMAT_VERSION_NEWER`)
  })

  it('is what `dsh-conformance check` runs', () => {
    const valid = folder.write('cli-valid.jsonl', text(turnLines()))
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const result = spawnSync(process.execPath, [bin, 'check', valid], { encoding: 'utf8' })
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`${valid}: valid, 6 events`)
  })

  it('walks folders for *.jsonl and *.jsonl.zstd, and names every file in JSON', () => {
    const root = tempFolder()
    try {
      const project = `${root.dir}/--workspace-project--`
      mkdirSync(`${project}/s-1`, { recursive: true })
      mkdirSync(`${project}/s-2`, { recursive: true })
      root.write('--workspace-project--/s-1/session.jsonl', text(sessionLines('s-1')))
      root.write('--workspace-project--/s-2/session.jsonl.zstd', zstdArtifact(sessionLines('s-2'), [2]))
      root.write('--workspace-project--/s-2/notes.txt', 'not a log')
      const run = runChild([root.dir, '--format', 'json'])
      expect(run.status).toBe(0)
      const reports = (JSON.parse(run.stdout) as { files: FileReport[] }).files
      expect(reports.map(report => [report.file.slice(root.dir.length), report.encoding, report.status])).toEqual([
        ['/--workspace-project--/s-1/session.jsonl', 'raw', 'valid'],
        ['/--workspace-project--/s-2/session.jsonl.zstd', 'zstd', 'valid'],
      ])
    } finally {
      root.remove()
    }
  })
})

describe('walking folders', () => {
  it('checks a file once, however often it is named: itself, in a folder also named, or through a link', () => {
    const root = tempFolder()
    try {
      mkdirSync(`${root.dir}/once`)
      const file = root.write('once/a.jsonl', text(sessionLines('s-1')))
      symlinkSync(file, `${root.dir}/link.jsonl`)
      const run = runChild([`${root.dir}/once`, file, `${root.dir}/link.jsonl`, `${root.dir}/once/../once/a.jsonl`, '--format', 'json'])
      const reports = (JSON.parse(run.stdout) as { files: FileReport[] }).files
      expect(reports.map(report => report.file)).toEqual([file])
    } finally {
      root.remove()
    }
  })

  it('reports a path that does not exist as an unchecked file, saying so, and counts it among the files it could not check', () => {
    const root = tempFolder()
    try {
      const log = root.write('a.jsonl', text(sessionLines('s-1')))
      const absent = `${root.dir}/absent/session.jsonl`
      const run = runChild([absent, log])
      expect(run.status).toBe(2)
      expect(run.stdout.trimEnd().split('\n')).toEqual([
        `${absent}: unchecked (CHECK_IO_ERROR)`,
        `  ${absent}: error CHECK_IO_ERROR: no such file or folder`,
        `${log}: valid, 6 events`,
        'checked 1 of 2 files: 1 valid, 0 invalid, 1 unchecked',
      ])
    } finally {
      root.remove()
    }
  })

  it('reports a named folder holding no log as an unchecked folder, not as a file, and fails the run', () => {
    const root = tempFolder()
    try {
      mkdirSync(`${root.dir}/empty/inner`, { recursive: true })
      root.write('empty/notes.txt', 'not a log')
      const log = root.write('a.jsonl', text(sessionLines('s-1')))
      const json = runChild([`${root.dir}/empty`, log, '--format', 'json'])
      expect(json.status).toBe(2)
      const document = JSON.parse(json.stdout) as { summary: Record<string, number>; files: FileReport[]; uncheckedFolders: unknown[] }
      expect(document.summary).toEqual({ files: 1, valid: 1, invalid: 0, refused: 0, known: 0, unchecked: 0, uncheckedFolders: 1 })
      expect(document.files.map(report => report.file)).toEqual([log])
      const message = `no *.jsonl, *.jsonl.zstd or *.jsonl.zst file under ${root.dir}/empty`
      expect(document.uncheckedFolders).toEqual([{ folder: `${root.dir}/empty`, code: 'CHECK_IO_ERROR', message }])
      const textRun = runChild([`${root.dir}/empty`])
      expect(textRun.status).toBe(2)
      expect(textRun.stdout.trimEnd().split('\n')).toEqual([
        `${root.dir}/empty: folder unchecked (CHECK_IO_ERROR)`,
        `  ${root.dir}/empty: error CHECK_IO_ERROR: ${message}`,
        'checked 0 files: 0 valid, 0 invalid, 0 unchecked; 1 folder unchecked',
      ])
    } finally {
      root.remove()
    }
  })

  const user = permissionsUser()
  it.skipIf(user === undefined)('reports a folder it meets but cannot read as an unchecked folder, and checks the others (skipped where nobody cannot read this checkout)', () => {
    const root = tempFolder()
    try {
      mkdirSync(`${root.dir}/ok`)
      mkdirSync(`${root.dir}/locked`)
      const log = root.write('ok/a.jsonl', text(sessionLines('s-1')))
      // Root reads any folder: the walk then runs as the user nobody (65534), who may not read this one.
      chmodSync(root.dir, 0o755)
      chmodSync(`${root.dir}/ok`, 0o755)
      chmodSync(log, 0o644)
      chmodSync(`${root.dir}/locked`, 0o000)
      const run = runChild([root.dir, '--format', 'json'], user?.uid)
      expect(run.status).toBe(2)
      const document = JSON.parse(run.stdout) as { files: FileReport[]; uncheckedFolders: { folder: string; code: string; message: string }[] }
      expect(document.files.map(report => [report.file, report.status])).toEqual([[log, 'valid']])
      expect(document.uncheckedFolders).toEqual([{ folder: `${root.dir}/locked`, code: 'CHECK_IO_ERROR', message: expect.stringContaining('EACCES') }])
    } finally {
      chmodSync(`${root.dir}/locked`, 0o755)
      root.remove()
    }
  })

  it('follows a link to a folder, walks each folder once (a link cycle ends), and takes *.jsonl.zst', () => {
    const root = tempFolder()
    try {
      mkdirSync(`${root.dir}/real/s-1`, { recursive: true })
      mkdirSync(`${root.dir}/linked`, { recursive: true })
      root.write('real/s-1/a.jsonl', text(sessionLines('s-1')))
      root.write('real/s-1/b.jsonl.zst', zstdArtifact(sessionLines('s-1'), [2]))
      symlinkSync(`${root.dir}/real`, `${root.dir}/linked/volume`)
      symlinkSync(`${root.dir}/linked`, `${root.dir}/real/s-1/back`)
      const run = runChild([`${root.dir}/linked`, '--format', 'json'])
      const reports = (JSON.parse(run.stdout) as { files: FileReport[] }).files
      expect(reports.map(report => [report.file.slice(root.dir.length), report.encoding, report.status])).toEqual([
        ['/linked/volume/s-1/a.jsonl', 'raw', 'valid'],
        ['/linked/volume/s-1/b.jsonl.zst', 'zstd', 'valid'],
      ])
      expect(run.status).toBe(0)
    } finally {
      root.remove()
    }
  })

  it('reads a raw log from a pipe (/dev/stdin, or -)', () => {
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const log = folder.write('piped.jsonl', text(sessionLines('s-1')))
    // Through a shell pipe: node's own `input` is a socket, which /dev/stdin cannot be opened on.
    for (const stdin of ['/dev/stdin', '-']) {
      const piped = spawnSync('sh', ['-c', `cat '${log}' | '${process.execPath}' '${bin}' check ${stdin}`], { encoding: 'utf8' })
      expect(piped.stdout, stdin).toContain('/dev/stdin: valid, ')
      expect(piped.status, stdin).toBe(0)
    }
    // An only line never ended and over the limit: a file is read to its end, where it is no header line
    // (JSONL-6); a pipe, which might never end, stops at the limit.
    const unended = folder.write('unended.jsonl', 'x'.repeat(5000))
    const asFile = spawnSync(process.execPath, [bin, 'check', '--max-line-bytes', '1000', unended], { encoding: 'utf8' })
    expect(asFile.stdout).toContain(`${unended}: invalid, decodeJsonl rejects it with JSONL_HEADER_INVALID`)
    expect(asFile.status).toBe(1)
    const asPipe = spawnSync('sh', ['-c', `cat '${unended}' | '${process.execPath}' '${bin}' check --max-line-bytes 1000 -`], { encoding: 'utf8' })
    expect(asPipe.stdout).toContain('/dev/stdin: unchecked (CHECK_LINE_TOO_LONG)')
    expect(asPipe.status).toBe(2)
    // A folder given as standard input (`< FOLDER`) is not walked: its files have no names there.
    const redirected = spawnSync('sh', ['-c', `'${process.execPath}' '${bin}' check - < '${folder.dir}'`], { encoding: 'utf8' })
    expect(redirected.stdout).toBe('/dev/stdin: unchecked (CHECK_IO_ERROR)\n  /dev/stdin: error CHECK_IO_ERROR: standard input is a folder: name the folder instead\nchecked 0 of 1 file: 0 valid, 0 invalid, 1 unchecked\n')
    expect(redirected.status).toBe(2)
  })

  it('ends quietly when the reader of its output stops reading (check FOLDER | head)', () => {
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const root = tempFolder()
    try {
      // Enough report lines to fill the pipe after head has gone, so that a write fails with EPIPE.
      const log = text(sessionLines('s-1'))
      for (let file = 0; file < 1500; file++) root.write(`log-${String(file).padStart(4, '0')}.jsonl`, log)
      const piped = spawnSync('sh', ['-c', `{ '${process.execPath}' '${bin}' check '${root.dir}'; echo "check exited $?" >&2; } | head -n 1`], { encoding: 'utf8' })
      expect(piped.stdout).toBe(`${root.dir}/log-0000.jsonl: valid, 6 events\n`)
      expect(piped.stderr).toBe('check exited 0\n')
    } finally {
      root.remove()
    }
  })

  it('refuses a short option instead of reading it as a file', () => {
    expect(parseCheckOptions(['log.jsonl', '-f', 'json'])).toEqual({ error: 'unknown option -f' })
    expect(parseCheckOptions(['./-f'])).toMatchObject({ paths: ['./-f'] })
  })
})

describe('the storage layout (JSONL-3)', () => {
  const root = tempFolder()
  afterAll(() => root.remove())
  const place = (relative: string, lines: string[]): string => {
    mkdirSync(path.dirname(`${root.dir}/${relative}`), { recursive: true })
    return root.write(relative, text(lines))
  }

  it('a session.jsonl whose header names another session or project is rejected before anything else', () => {
    for (const [relative, lines] of [
      ['--workspace-project--/s-3/session.jsonl', sessionLines('s-4')],
      ['--elsewhere--/s-5/session.jsonl', sessionLines('s-5')],
      ['_no-cwd/s/session.jsonl', sessionLines('s')],
    ] as const) {
      const file = place(relative, lines)
      const report = check(file)
      expect(report.outcome, relative).toEqual({ verdict: 'rejected', operation: 'open', code: 'HEADER_ID_MISMATCH' })
      expect(report.diagnostics[0], relative).toMatchObject({ severity: 'error', code: 'HEADER_ID_MISMATCH', requirement: 'JSONL-3' })
      expect(report.diagnostics[0]?.message, relative).toContain('<root>/--workspace-project--/')
      expect(report.diagnostics[0]?.message, relative).toMatch(/ \(a copy taken out of the layout is read as a lone artifact with --no-layout, once it has another name, or through a pipe\)$/)
    }
  })

  it('--no-layout reads a session.jsonl out of its place as a lone artifact, and the JSON report says so', () => {
    const file = place('--elsewhere--/s-8/session.jsonl', sessionLines('s-9'))
    expect(runChild([file]).status).toBe(1)
    const run = runChild(['--no-layout', file, '--format', 'json'])
    expect(run.status).toBe(0)
    const document = JSON.parse(run.stdout) as { noLayout?: boolean; files: FileReport[] }
    expect(document.noLayout).toBe(true)
    expect(document.files.map(report => [report.status, report.diagnostics])).toEqual([['valid', []]])
    expect(parseCheckOptions(['--no-layout=yes', file])).toEqual({ error: '--no-layout takes no value' })
  })

  it('a header without cwd belongs under _no-cwd; the same file reached through a link passes too', () => {
    const file = place('_no-cwd/s/session.jsonl', turnLines())
    expect(check(file).status).toBe('valid')
    symlinkSync(`${root.dir}/_no-cwd`, `${root.dir}/alias`)
    expect(check(`${root.dir}/alias/s/session.jsonl`).status).toBe('valid')
  })

  it('a header whose cwd is null derives no path: it is not a header without cwd (JSONL-1)', () => {
    const header = '{"type":"session","version":0,"id":"s-null","createdAt":1,"cwd":null,"delegationDepth":0}'
    const report = check(place('_no-cwd/s-null/session.jsonl', [header, ...turnLines().slice(1)]))
    expect(report.outcome).toEqual({ verdict: 'rejected', operation: 'open', code: 'HEADER_ID_MISMATCH' })
    expect(report.diagnostics[0]?.message).toMatch(/empty or not a string.* \(a copy taken out of the layout is read as a lone artifact with --no-layout, once it has another name, or through a pipe\)$/)
  })

  it('a file named otherwise is a lone artifact that no path binds', () => {
    expect(check(place('--elsewhere--/s-6/copy.jsonl', sessionLines('s-7'))).status).toBe('valid')
  })

  it('a file named in the layout and elsewhere is bound by its layout name, whichever name comes first', () => {
    const lone = place('kept/lone.jsonl', sessionLines('s-11'))
    mkdirSync(`${root.dir}/--elsewhere--/s-12`, { recursive: true })
    const layoutName = `${root.dir}/--elsewhere--/s-12/session.jsonl`
    symlinkSync(lone, layoutName)
    expect(check(lone).status).toBe('valid')
    expect(check(layoutName).outcome).toEqual({ verdict: 'rejected', operation: 'open', code: 'HEADER_ID_MISMATCH' })
    // Named twice on one command line, the file is checked once, under its first name, with one verdict in either order.
    const outcomes = [[layoutName, lone], [lone, layoutName]].map(order => {
      const reports = (JSON.parse(runChild([...order, '--format', 'json']).stdout) as { files: FileReport[] }).files
      expect(reports.map(report => report.file)).toEqual([order[0]])
      return reports[0]
    })
    for (const report of outcomes) expect(report?.outcome).toEqual({ verdict: 'rejected', operation: 'open', code: 'HEADER_ID_MISMATCH' })
    expect(outcomes[1]?.diagnostics[0]?.message).toContain(`named also ${layoutName}: the header's id and cwd place this session at <root>/--workspace-project--/s-11/session.jsonl, but the file is at …/--elsewhere--/s-12/session.jsonl`)
  })

  it('a link is read by the encoding that the name of its target says', () => {
    const zstd = root.write('compressed.jsonl.zstd', zstdArtifact(sessionLines('s-1'), [2]))
    symlinkSync(zstd, `${root.dir}/compressed-link.jsonl`)
    expect(check(`${root.dir}/compressed-link.jsonl`)).toMatchObject({ encoding: 'zstd', status: 'valid' })
  })
})

describe('a log whose name is not UTF-8', () => {
  it('is named unreadable, saying why, not missing', () => {
    const root = tempFolder()
    try {
      const log = root.write('a.jsonl', text(sessionLines('s-1')))
      // The bytes FF FE, then .jsonl: Node decodes the name with U+FFFD and cannot open it by that name.
      const raw = Buffer.concat([Buffer.from(`${root.dir}/`), Buffer.from([0xff, 0xfe]), Buffer.from('.jsonl')])
      writeFileSync(raw, text(sessionLines('s-2')))
      const named = `${root.dir}/\uFFFD\uFFFD.jsonl`
      const walked = findArtifacts([root.dir])
      expect(walked).toEqual([
        { kind: 'file', path: log, otherNames: [] },
        { kind: 'unreadable', path: named, message: `its name is not valid UTF-8: ${UNDECODABLE_NAME}` },
      ])
      expect(findArtifacts([named])).toEqual([{ kind: 'unreadable', path: named, message: `no such file or folder (if its name is not valid UTF-8: ${UNDECODABLE_NAME})` }])
    } finally {
      root.remove()
    }
  })
})

describe('a log that is not a regular file', () => {
  const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
  // In a child with a time limit: a check that opened a pipe no one writes would wait for ever.
  const checkChild = (args: string[]): { status: number | null; stdout: string } => spawnSync(process.execPath, [bin, 'check', ...args], { encoding: 'utf8', timeout: 20_000 })

  it('a zstd log is left unchecked with CHECK_IO_ERROR, since a pipe cannot be read at positions, and without waiting for a writer', () => {
    const fifo = path.join(folder.dir, 'piped.jsonl.zstd')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const run = checkChild([fifo])
    expect(run.status).toBe(2)
    expect(run.stdout).toContain(`${fifo}: unchecked (CHECK_IO_ERROR)\n  ${fifo}: error CHECK_IO_ERROR: cannot read: a zstd log is read at positions, so it must be a regular file, not a pipe`)
  })

  it('a folder walk names a pipe it meets instead of reading it or passing over it in silence', () => {
    const root = tempFolder()
    try {
      const log = root.write('a.jsonl', text(sessionLines('s-1')))
      expect(spawnSync('mkfifo', [`${root.dir}/b.jsonl`]).status).toBe(0)
      expect(spawnSync('mkfifo', [`${root.dir}/c.txt`]).status).toBe(0)
      const run = checkChild([root.dir])
      expect(run.stdout).toBe([
        `${log}: valid, 6 events`,
        `${root.dir}/b.jsonl: unchecked (CHECK_IO_ERROR)`,
        `  ${root.dir}/b.jsonl: error CHECK_IO_ERROR: ${root.dir}/b.jsonl is named like a session log but is not a regular file (a pipe, socket or device), which a folder walk does not read; name it on the command line to read it`,
        'checked 1 of 2 files: 1 valid, 0 invalid, 1 unchecked',
        '',
      ].join('\n'))
      expect(run.status).toBe(2)
    } finally {
      root.remove()
    }
  })
})
