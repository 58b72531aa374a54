// `dsh-conformance audit`: its options, and one run per output format over hand-built logs, with the
// exit status that says whether a row failed.
import { constants } from 'node:buffer'
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { audit, formatMismatchNote, mostAuditBytes, mostAuditValues, parseAuditOptions, readLog } from '../../conformance/audit/command.ts'
import { reference } from '../../reference/index.ts'
import type { AuditReport } from '../../generated/types/index.ts'
import { event } from '../reference/helpers.ts'
import { artifact, goodTurn } from './logs.ts'
import { runCliHere } from '../support/cli.ts'
import { blockHeader, rawFrame, WINDOW_128_KIB, ZSTD_MAGIC, zstdArtifact } from '../check/support.ts'

const ROW_TITLES = ['Raw-fact integrity', 'Surface legality', 'Constraint preservation', 'Request rebuild', 'Persistence', 'Failure recovery', 'Budget']

const temporaryFolders: string[] = []
afterAll(() => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true })
})

function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix))
  temporaryFolders.push(folder)
  return folder
}

/** A lone artifact (a session.jsonl would be bound to its place in the storage layout, JSONL-3). */
function logFile(bytes: Uint8Array, name = 'log.jsonl'): { directory: string; log: string } {
  const directory = temporaryFolder('dsh-audit-cli-')
  const log = path.join(directory, name)
  writeFileSync(log, bytes)
  return { directory, log }
}

describe('audit options', () => {
  it('takes the format from --format, else from the extension of --out, else text', () => {
    expect(parseAuditOptions(['log.jsonl'])).toMatchObject({ log: 'log.jsonl', format: 'text', out: undefined, tokenizer: 'auto' })
    expect(parseAuditOptions(['log.jsonl', '--out', 'a.html'])).toMatchObject({ format: 'html', out: 'a.html' })
    expect(parseAuditOptions(['--out', 'a.md', 'log.jsonl', '--format', 'json'])).toMatchObject({ format: 'json', out: 'a.md' })
    // --format wins, with a note, since an extension naming another format is most likely a slip.
    expect(formatMismatchNote({ format: 'json', out: 'a.md' })).toBe('note: --out a.md names md, but --format writes json, as asked')
    expect(formatMismatchNote({ format: 'md', out: 'a.markdown' })).toBeUndefined()
    expect(formatMismatchNote({ format: 'text', out: 'a.pdf' })).toBeUndefined()
    expect(formatMismatchNote({ format: 'html', out: undefined })).toBeUndefined()
    expect(parseAuditOptions(['log.jsonl', '--tokenizer', 'estimate', '--vocabulary', 'v0-rc8'])).toMatchObject({ tokenizer: 'estimate', vocabulary: 'v0-rc8' })
    expect(parseAuditOptions(['log.jsonl'])).toMatchObject({ noLayout: false })
    expect(parseAuditOptions(['--no-layout', 'log.jsonl'])).toMatchObject({ log: 'log.jsonl', noLayout: true })
    expect(parseAuditOptions(['log.jsonl', '--no-layout=1'])).toEqual({ error: '--no-layout takes no value' })
    expect(parseAuditOptions(['log.jsonl', '--no-layout', '--no-layout'])).toEqual({ error: '--no-layout is given twice' })
  })

  it('takes markdown and htm as names of md and html, in --format as in the extension of --out', () => {
    expect(parseAuditOptions(['log.jsonl', '--format', 'markdown'])).toMatchObject({ format: 'md' })
    expect(parseAuditOptions(['log.jsonl', '--format', 'htm'])).toMatchObject({ format: 'html' })
    expect(parseAuditOptions(['log.jsonl', '--out', 'a.markdown'])).toMatchObject({ format: 'md' })
    expect(parseAuditOptions(['log.jsonl', '--out', 'a.HTM'])).toMatchObject({ format: 'html' })
  })

  it('says what is wrong with bad options', () => {
    expect(parseAuditOptions([])).toEqual({ error: 'audit needs the LOG to read' })
    expect(parseAuditOptions(['a', 'b'])).toEqual({ error: 'audit takes one LOG, not also b' })
    expect(parseAuditOptions(['a', '--format', 'pdf'])).toEqual({ error: '--format must be one of text, json, md, html (markdown and htm name md and html), not pdf' })
    expect(parseAuditOptions(['a', '--out'])).toEqual({ error: '--out needs a value' })
    expect(parseAuditOptions(['a', '--vocabulary', 'v9'])).toEqual({ error: '--vocabulary must be v0-pinned or v0-rc8, not v9' })
    expect(parseAuditOptions(['a', '--color', 'yes'])).toEqual({ error: 'unknown option --color' })
    expect(parseAuditOptions(['a', '-f', 'json'])).toEqual({ error: 'unknown option -f' })
    expect(parseAuditOptions(['a', '--tokenizer', 'auto', '--tokenizer', 'estimate'])).toEqual({ error: '--tokenizer is given twice' })
    expect(parseAuditOptions(['dir/a.jsonl', '--out', './dir/../dir/a.jsonl'])).toEqual({ error: '--out ./dir/../dir/a.jsonl would overwrite the log it audits' })
  })

  it('refuses a --tokenizer other than auto or estimate with exit 2, reading no log', async () => {
    expect(parseAuditOptions(['a', '--tokenizer', 'exact'])).toEqual({ error: '--tokenizer must be auto or estimate, not exact' })
    const refused = await runCliHere(['audit', 'no-such.jsonl', '--tokenizer=v3'])
    expect(refused).toEqual({ code: 2, stdout: '', stderr: '--tokenizer must be auto or estimate, not v3\ndsh-conformance audit --help lists its options\n' })
  })

  it('takes the argument after -- as the LOG, one whose name starts with - included, as check does', () => {
    expect(parseAuditOptions(['--format', 'json', '--', '-odd.jsonl'])).toMatchObject({ log: '-odd.jsonl', format: 'json' })
    expect(parseAuditOptions(['--', '--format'])).toMatchObject({ log: '--format', format: 'text' })
    expect(parseAuditOptions(['a.jsonl', '--', 'b.jsonl'])).toEqual({ error: 'audit takes one LOG, not also b.jsonl' })
    expect(parseAuditOptions(['--', '-x', '-y'])).toEqual({ error: 'audit takes one LOG, not also -y' })
    expect(parseAuditOptions(['--'])).toEqual({ error: 'audit needs the LOG to read' })
  })

  it('takes --option=value as --option value, as the other commands do', () => {
    expect(parseAuditOptions(['log.jsonl', '--format=json', '--out=a.md'])).toMatchObject({ format: 'json', out: 'a.md' })
  })
})

describe('audit runs', () => {
  it.each(['text', 'md', 'html'])('writes the seven rows as %s and exits 0 when no row fails', async format => {
    const { directory, log } = logFile(artifact(goodTurn()))
    const out = path.join(directory, `report.${format}`)
    expect(await audit([log, '--out', out, '--tokenizer', 'estimate'])).toBe(0)
    const written = readFileSync(out, 'utf8')
    for (const title of ROW_TITLES) expect(written).toContain(title)
    expect(written).toMatch(/estimate/i)
  })

  it('writes the text report to stdout when no --out is given, and nothing to stderr', async () => {
    const { log } = logFile(artifact(goodTurn()))
    const run = await runCliHere(['audit', log, '--tokenizer', 'estimate'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout.split('\n')[0]).toBe(`dsh-conformance audit: ${log}`)
    for (const title of ROW_TITLES) expect(run.stdout).toContain(title)
    expect(run.stdout).toContain('\noverall: PASS\n')
  })

  it('notes on stderr an --out whose extension names another format than --format, and writes the format asked', async () => {
    const { directory, log } = logFile(artifact(goodTurn()))
    const out = path.join(directory, 'report.md')
    const run = await runCliHere(['audit', log, '--out', out, '--format', 'json', '--tokenizer', 'estimate'])
    expect(run).toEqual({ code: 0, stdout: `wrote ${out} (json): overall pass\n`, stderr: `note: --out ${out} names md, but --format writes json, as asked\n` })
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ overall: 'pass' })
  })

  it('writes JSON and exits 1 when a row fails', async () => {
    const { directory, log } = logFile(artifact([...goodTurn(), event('compaction/start', 12, { compactionId: 'k', turn: null })]))
    const out = path.join(directory, 'report.json')
    expect(await audit([log, '--out', out, '--tokenizer', 'estimate'])).toBe(1)
    const report = JSON.parse(readFileSync(out, 'utf8')) as { $schema: string; overall: string; rows: { id: string; verdict: string }[] }
    // It names its schema by the schema's $id, as check's report does.
    const schema = JSON.parse(readFileSync(new URL('../../schemas/audit-report.schema.json', import.meta.url), 'utf8')) as { $id: string }
    expect(report.$schema).toBe(schema.$id)
    expect(report.overall).toBe('fail')
    expect(report.rows.find(row => row.id === 'failure-recovery')?.verdict).toBe('fail')
  })

  it('shows in text, Markdown and HTML each row\'s verdict, the overall one and each item\'s rules, as the JSON has them, for a log with a failing row', async () => {
    const { directory, log } = logFile(artifact([...goodTurn(), event('compaction/start', 12, { compactionId: 'k', turn: null })]))
    const written = async (format: string): Promise<string> => {
      const out = path.join(directory, `failing.${format}`)
      expect(await audit([log, '--out', out, '--format', format, '--tokenizer', 'estimate'])).toBe(1)
      return readFileSync(out, 'utf8')
    }
    const report = JSON.parse(await written('json')) as AuditReport
    const verdicts = report.rows.map(row => row.verdict)
    expect(verdicts).toContain('fail')
    expect(verdicts).toContain('pass')
    const cited = report.rows.flatMap(row => row.evidence).filter(item => item.requirements !== undefined && item.requirements.length > 0)
    expect(cited.length).toBeGreaterThan(0)

    const text = await written('text')
    expect(text).toContain('\noverall: FAIL\n')
    expect([...text.matchAll(/^ {2}\d {2}.+? {2}(PASS|FAIL|WARN|HUMAN) /gm)].map(match => match[1]!.toLowerCase())).toEqual(verdicts)
    expect([...text.matchAll(/^\d\. .+: (PASS|FAIL|WARN|HUMAN)$/gm)].map(match => match[1]!.toLowerCase())).toEqual(verdicts)
    for (const item of cited) expect(text).toContain(`[${item.mark.toUpperCase()}] ${item.text} (${item.requirements!.join(', ')})`)

    const markdown = await written('md')
    expect(markdown).toContain('\nOverall: **fail**')
    expect([...markdown.matchAll(/^\| \d \| .+? \| \*\*(\w+)\*\* \|/gm)].map(match => match[1])).toEqual(verdicts)
    expect([...markdown.matchAll(/^## \d\. .+: \*\*(\w+)\*\*$/gm)].map(match => match[1])).toEqual(verdicts)
    for (const item of cited) expect(markdown).toContain(` (${item.requirements!.join(', ')})\n`)

    const html = await written('html')
    expect(html).toMatch(/<p class="meta overall">Overall: <span class="verdict verdict-fail" data-verdict="fail">/)
    expect([...html.matchAll(/<tr data-row="[\w-]+">.*?data-verdict="(\w+)"/g)].map(match => match[1])).toEqual(verdicts)
    expect([...html.matchAll(/<section class="row" id="row-[\w-]+" data-row="[\w-]+">\n<h2>.*?data-verdict="(\w+)"/g)].map(match => match[1])).toEqual(verdicts)
    expect([...html.matchAll(/<span class="seq">([^<]+)<\/span><\/li>/g)].map(match => match[1])).toEqual(cited.map(item => item.requirements!.join(', ')))
  })

  it('counts in the singular for one', async () => {
    const { directory, log } = logFile(artifact([event('turn/start', 0, { turn: 1 })]))
    const out = path.join(directory, 'report.html')
    await audit([log, '--out', out, '--tokenizer', 'estimate'])
    const written = readFileSync(out, 'utf8')
    expect(written).toMatch(/\b1 event\b/)
    expect(written).not.toMatch(/\b1 events\b/)
    expect(written).toContain('Timeline of the surface: 1 event, 0 replaces, 0 nodes on the current surface')
  })

  it('fails persistence for a session.jsonl that sits where its header does not place it (JSONL-3), as check does', async () => {
    const root = temporaryFolder('dsh-audit-layout-')
    const derived = reference.artifactPath({ sessionId: 'audit-test', cwd: '/work/project' })
    if (!derived.ok) throw new Error('the test header derives no path')
    const [project] = derived.value.path.split('/')
    for (const [segment, verdict] of [['audit-test', 'pass'], ['other-id', 'fail']] as const) {
      const log = path.join(root, project!, segment, 'session.jsonl')
      mkdirSync(path.dirname(log), { recursive: true })
      writeFileSync(log, artifact(goodTurn()))
      const out = path.join(root, `${segment}.json`)
      await audit([log, '--out', out, '--tokenizer', 'estimate'])
      const persistence = (JSON.parse(readFileSync(out, 'utf8')) as AuditReport).rows.find(row => row.id === 'persistence')!
      expect(persistence.verdict).toBe(verdict)
      if (verdict === 'fail') expect(persistence.evidence[0]?.text).toContain(`HEADER_ID_MISMATCH: the header's id and cwd place this session at <root>/${derived.value.path}`)
      // An intact log in the wrong place: the summary names that cause alone, not damage.
      if (verdict === 'fail') expect(persistence.summary).toBe('The artifact is not where its header places it (the store cannot open it for its session; the log itself may be intact).')
    }
    // With --no-layout the misplaced copy is a lone artifact, and the row and the report say so.
    const lone = path.join(root, 'lone.json')
    expect(await audit([path.join(root, project!, 'other-id', 'session.jsonl'), '--no-layout', '--out', lone, '--tokenizer', 'estimate'])).toBe(0)
    const report = JSON.parse(readFileSync(lone, 'utf8')) as AuditReport
    expect(report.log.noLayout).toBe(true)
    const persistence = report.rows.find(row => row.id === 'persistence')!
    expect(persistence.verdict).toBe('pass')
    expect(persistence.evidence[0]).toEqual({ mark: 'info', text: 'read as a lone artifact (--no-layout): its place in the storage layout was not checked', requirements: ['JSONL-3'] })
    // A misplaced log that load refuses is still misplaced (as check has it: exit 1, not 2).
    const refusedLog = path.join(root, project!, 'other-id', 'session.jsonl')
    writeFileSync(refusedLog, artifact([...goodTurn(), event('future/thing', goodTurn().length, {})]))
    const both = path.join(root, 'both.md')
    expect(await audit([refusedLog, '--out', both, '--tokenizer', 'estimate'])).toBe(1)
    const written = readFileSync(both, 'utf8')
    expect(written).toContain('HEADER\\_ID\\_MISMATCH: the header\'s id and cwd place this session')
    expect(written).toContain('Overall: **fail**\n')
    // So is one whose header decodes before a line that does not, a later turn/end making it damage.
    const lines = new TextDecoder().decode(artifact(goodTurn())).split('\n')
    lines.splice(2, 0, '{"type":"step/start","seq":')
    writeFileSync(refusedLog, lines.join('\n'))
    const damaged = path.join(root, 'damaged.json')
    expect(await audit([refusedLog, '--out', damaged, '--tokenizer', 'estimate'])).toBe(1)
    const damagedReport = JSON.parse(readFileSync(damaged, 'utf8')) as AuditReport
    expect(damagedReport.log.rejection?.code).toBe('JSONL_LINE_UNPARSABLE')
    expect(damagedReport.log.sessionId).toBe('audit-test')
    expect(damagedReport.rows.find(row => row.id === 'persistence')!.evidence.map(item => item.text).join('\n')).toContain('HEADER_ID_MISMATCH')
    expect(damagedReport.rows.find(row => row.id === 'persistence')!.summary).toBe('Committed data is damaged; the artifact is not where its header places it (the store cannot open it for its session).')
  })

  it('exits 2 for a log of another format version, and writes the report, which says it is no damage (FMT-5)', async () => {
    const newer = new TextDecoder().decode(artifact(goodTurn())).replace('"version":0', '"version":1')
    const { directory, log } = logFile(new TextEncoder().encode(newer))
    const out = path.join(directory, 'report.md')
    const said: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => { said.push(line) })
    try {
      expect(await audit([log, '--out', out, '--tokenizer', 'estimate'])).toBe(2)
    } finally {
      spy.mockRestore()
    }
    expect(said).toEqual([`wrote ${out} (md): overall fail (refused: this reader cannot read the log, which is no sign of damage)`])
    const written = readFileSync(out, 'utf8')
    expect(written).toContain('Overall: **fail** (this reader refuses the log, which is no sign of damage: FMT-5)')
    expect(written).toContain('decodeJsonl refuses the log with FORMAT\\_VERSION\\_NEWER at line 1')
    expect(written).not.toContain('rejects')
  })

  it('warns under raw facts about what decoding hides and check notices: CRLF line ends, ill-formed UTF-8', async () => {
    const crlf = new TextDecoder().decode(artifact(goodTurn())).replaceAll('\n', '\r\n')
    const { directory, log } = logFile(new TextEncoder().encode(crlf))
    const out = path.join(directory, 'report.json')
    expect(await audit([log, '--out', out, '--tokenizer', 'estimate'])).toBe(0)
    const rawFacts = (JSON.parse(readFileSync(out, 'utf8')) as AuditReport).rows.find(row => row.id === 'raw-facts')!
    expect(rawFacts.verdict).toBe('warn')
    // Not "intact": ill-formed UTF-8 is read as U+FFFD, so what was read may differ from what was meant.
    expect(rawFacts.summary).toBe('Every event is present, but the stored bytes are not as a writer writes them, and what was read from them may differ (see the warnings).')
    expect(rawFacts.evidence.map(item => item.text).join('\n')).toContain('CARRIAGE_RETURN from line 1: ')
  })

  it('keeps the byte notices beside the refusal of a log they made unreadable: a byte order mark', async () => {
    const { directory, log } = logFile(new Uint8Array([0xef, 0xbb, 0xbf, ...artifact(goodTurn())]))
    const out = path.join(directory, 'report.json')
    expect(await audit([log, '--out', out, '--tokenizer', 'estimate'])).toBe(1)
    const rawFacts = (JSON.parse(readFileSync(out, 'utf8')) as AuditReport).rows.find(row => row.id === 'raw-facts')!
    expect(rawFacts.evidence.map(item => [item.mark, item.text.slice(0, 40)])).toEqual([
      ['fail', 'decodeJsonl rejects the log with JSONL_H'],
      ['warn', 'BYTE_ORDER_MARK from line 1: this line s'],
    ])
  })

  it('exits 2, not 1 (a failed row), when the report cannot be written', async () => {
    const { log } = logFile(artifact(goodTurn()))
    expect(await audit([log, '--out', path.join(log, 'report.html'), '--tokenizer', 'estimate'])).toBe(2)
  })

  it('creates the report\'s folder when it is missing', async () => {
    const { directory, log } = logFile(artifact(goodTurn()))
    const out = path.join(directory, 'reports', 'audit', 'report.html')
    expect(await audit([log, '--out', out, '--tokenizer', 'estimate'])).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain('<html')
  })

  it('exits 2 when the log cannot be read', async () => {
    expect(await audit([path.join(tmpdir(), 'no-such-dir', 'session.jsonl'), '--tokenizer', 'estimate'])).toBe(2)
  })

  it('reads a raw log from a pipe (-, or /dev/stdin), its byte notices included', () => {
    const crlf = new TextDecoder().decode(artifact(goodTurn())).replaceAll('\n', '\r\n')
    const { log } = logFile(new TextEncoder().encode(crlf))
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    // Through a shell pipe, which cannot be read twice: the notices come from the one read.
    for (const stdin of ['-', '/dev/stdin']) {
      const piped = spawnSync('sh', ['-c', `cat '${log}' | '${process.execPath}' '${bin}' audit ${stdin} --format json --tokenizer estimate`], { encoding: 'utf8' })
      expect(piped.status, piped.stderr).toBe(0)
      const report = JSON.parse(piped.stdout) as AuditReport
      expect(report.log.file).toBe('/dev/stdin')
      expect(report.rows.find(row => row.id === 'raw-facts')!.evidence.map(item => item.text).join('\n'), stdin).toContain('CARRIAGE_RETURN from line 1: ')
    }
    // Node's own `input` is a socket, which /dev/stdin cannot be opened on: audit reads descriptor 0.
    const socket = spawnSync(process.execPath, [bin, 'audit', '-', '--format', 'json', '--tokenizer', 'estimate'], { input: readFileSync(log), encoding: 'utf8' })
    expect(socket.status, socket.stderr).toBe(0)
    expect((JSON.parse(socket.stdout) as AuditReport).log.events).toBe(12)
    // A redirected file is read from where standard input stands: here after a line the shell's `read` took.
    const { log: afterALine } = logFile(Buffer.concat([Buffer.from('not the log\n'), artifact(goodTurn())]), 'after-a-line.jsonl')
    const redirected = spawnSync('bash', ['-c', `{ read -r _; '${process.execPath}' '${bin}' audit - --format json --tokenizer estimate; } < '${afterALine}'`], { encoding: 'utf8' })
    expect(redirected.status, redirected.stderr).toBe(0)
    expect((JSON.parse(redirected.stdout) as AuditReport).log.events).toBe(12)
  })

  it('reads a zstd log from a named pipe, whole, its byte notices included', () => {
    const crlf = new TextDecoder().decode(artifact(goodTurn())).replaceAll('\n', '\r\n').split('\n').slice(0, -1)
    const { directory, log } = logFile(zstdArtifact(crlf, [4]), 'written.jsonl.zstd')
    const fifo = path.join(directory, 'piped.jsonl.zstd')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    // Opening a pipe waits for its writer: another process, started before audit's blocking read.
    const writer = spawn('sh', ['-c', `cat '${log}' > '${fifo}'`], { stdio: 'ignore' })
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const piped = spawnSync(process.execPath, [bin, 'audit', fifo, '--format', 'json', '--tokenizer', 'estimate'], { encoding: 'utf8' })
    writer.kill()
    expect(piped.status, piped.stderr).toBe(0)
    const report = JSON.parse(piped.stdout) as AuditReport
    expect(report.log.events).toBe(12)
    expect(report.rows.find(row => row.id === 'raw-facts')!.evidence.map(item => item.text).join('\n')).toContain('CARRIAGE_RETURN from line 1: ')
  })

  it('says so when the log does not exist', async () => {
    const { directory } = logFile(artifact(goodTurn()))
    const absent = `${directory}/absent.jsonl`
    const { stderr, code } = await runCliHere(['audit', absent, '--tokenizer', 'estimate'])
    expect(code).toBe(2)
    expect(stderr).toBe(`cannot audit ${absent}: no such file or folder\n`)
  })

  it('prints the log path, a dangling link\'s target and the --out path with their controls escaped: no name forges a line or reaches the terminal raw', async () => {
    const hostile = 'x\u001b]0;TITLE\u0007\u001b[2J\r\nok.jsonl: valid, 6 events\u202e'
    const escaped = 'x\\u001b]0;TITLE\\u0007\\u001b[2J\\u000d\\u000aok.jsonl: valid, 6 events\\u202e'
    const { directory, log } = logFile(artifact(goodTurn()))
    const link = path.join(directory, `dangle${hostile}.jsonl`)
    symlinkSync(path.join(directory, hostile), link)
    const dangling = await runCliHere(['audit', link, '--tokenizer', 'estimate'])
    expect(dangling.code).toBe(2)
    expect(dangling.stderr).toBe(`cannot audit ${directory}/dangle${escaped}.jsonl: a link to ${directory}/${escaped}, which leads to no file or folder\n`)
    const unwritable = await runCliHere(['audit', log, '--out', `${log}/${hostile}.md`, '--format', 'md', '--tokenizer', 'estimate'])
    expect(unwritable.code).toBe(2)
    expect(unwritable.stderr).toContain(`cannot write ${log}/${escaped}.md: `)
    for (const output of [dangling.stderr, unwritable.stderr]) {
      expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/)
      expect(output.trimEnd().split('\n')).toHaveLength(1)
    }
  })

  it('refuses a log larger than it can hold, before reading a file and once a stream has passed the limit', () => {
    const { log } = logFile(artifact(goodTurn()))
    const size = readFileSync(log).length
    expect(readLog(log, size).bytes.length).toBe(size)
    const hint = "audit can hold in this process's memory (it keeps the whole log and its report, about 32 times its size); give Node more with NODE_OPTIONS=--max-old-space-size=MB, or check the log with check, which reads it as a stream"
    expect(() => readLog(log, size - 1)).toThrow(`it holds ${size} bytes, more than the ${size - 1} bytes ${hint}`)
    // An endless device: read in chunks, and stopped once past the limit, not when memory runs out.
    expect(() => readLog('/dev/zero', 1000)).toThrow(`it holds more than the 1000 bytes ${hint}`)
    // The limit follows the heap: a 1M-event log of 38 MB fits the default heap of a 64-bit Node.
    expect(mostAuditBytes()).toBeGreaterThan(38 * 2 ** 20)
    // With a heap of 20 GB it would pass the longest string Node holds, past which a line could not be
    // decoded: it stops there.
    const large = spawnSync(process.execPath, ['--max-old-space-size=20000', '--import', 'tsx', '--input-type=module', '-e',
      `const { mostAuditBytes } = await import(${JSON.stringify(fileURLToPath(new URL('../../conformance/audit/command.ts', import.meta.url)))}); console.log(mostAuditBytes())`], { encoding: 'utf8' })
    expect(large.stdout.trim()).toBe(String(constants.MAX_STRING_LENGTH))
  })

  it('refuses a zstd log whose content is more than it can hold, however small the file, before decoding it', () => {
    // A frame of run-length blocks: 200 of them turn 800 bytes into 200 × 4,096 bytes of `a`, inside one
    // user message's text, so the file is a tiny fraction of what the reference's decoder would hold.
    const lines = Buffer.from(artifact(goodTurn())).toString().split('\n')
    const user = lines.findIndex(line => line.includes('"type":"user/message"'))
    const cut = (lines[user] as string).indexOf('"text":"') + '"text":"'.length
    const before = `${lines.slice(1, user).join('\n')}\n${(lines[user] as string).slice(0, cut)}`
    const after = `${(lines[user] as string).slice(cut)}\n${lines.slice(user + 1).join('\n')}`
    const rawBlock = (bytes: Buffer, last = false): Buffer => Buffer.concat([blockHeader(last, 0, bytes.length), bytes])
    const runBlock = (byte: number, count: number): Buffer => Buffer.concat([blockHeader(false, 1, count), Buffer.from([byte])])
    const runs = Array.from({ length: 200 }, () => runBlock(0x61, 4096))
    const content = [rawBlock(Buffer.from(before)), ...runs, rawBlock(Buffer.from(after), true)]
    const frame = Buffer.concat([ZSTD_MAGIC, Buffer.from([0x00, WINDOW_128_KIB]), ...content])
    const bytes = Buffer.concat([rawFrame(Buffer.from(`${lines[0]}\n`)), frame])
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-bomb-'))
    const log = path.join(dir, 'session.jsonl.zstd')
    writeFileSync(log, bytes)
    expect(bytes.length).toBeLessThan(5000)
    // Within the limit, it is read; past it, refused, whatever the file's size. (A limit leaves a frame
    // a window of a quarter of it, and these frames have windows of 128 KiB.)
    expect(readLog(log, 1 << 20).bytes.length).toBe(bytes.length)
    const hint = (most: number): string => `audit can hold ${most} bytes of a log (it keeps the whole log and its report, about 32 times its content) and ${mostAuditValues()} values (about 512 bytes each, as events and in the report) in this process's memory; give Node more with NODE_OPTIONS=--max-old-space-size=MB, or check the log with check, which reads it as a stream`
    expect(() => readLog(log, 600_000)).toThrow(`its content holds more than 600000 bytes; ${hint(600_000)}`)
    // A frame whose window a decoder could not hold within a quarter of the limit is refused unread.
    const wide = Buffer.concat([rawFrame(Buffer.from(`${lines[0]}\n`)), rawFrame(Buffer.from(lines.slice(1).join('\n')), { windowByte: (20 - 10) << 3 })])
    writeFileSync(log, wide)
    expect(readLog(log, 4 << 20).bytes.length).toBe(wide.length)
    expect(() => readLog(log, 1 << 20)).toThrow(`the frame at byte ${rawFrame(Buffer.from(`${lines[0]}\n`)).length} needs a 1048576-byte window, more than a quarter of what audit holds (262144 bytes: a decoder may keep four windows); ${hint(1 << 20)}`)
    rmSync(dir, { recursive: true })
  })

  it('refuses a log whose lines would build more values than it can hold, raw or as zstd', () => {
    // One user message's text block carries a member nested 1,000 arrays deep, and its text a bracket,
    // a brace and a comma after an escaped quote, which build nothing. The count is what parsing the
    // lines builds: every array and object, and every member or element after the first of each.
    const lines = Buffer.from(artifact(goodTurn())).toString().split('\n')
    const user = lines.findIndex(line => line.includes('"type":"user/message"'))
    lines[user] = (lines[user] as string).replace('"text":"', `"nested":${'['.repeat(1000)}${']'.repeat(1000)},"text":"[\\"{,`)
    const built = (value: unknown): number => {
      if (typeof value !== 'object' || value === null) return 0
      const members = Object.values(value)
      return 1 + Math.max(0, members.length - 1) + members.reduce((sum: number, member) => sum + built(member), 0)
    }
    const values = lines.filter(line => line !== '').reduce((sum, line) => sum + built(JSON.parse(line)), 0)
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-values-'))
    const raw = path.join(dir, 'session.jsonl')
    writeFileSync(raw, lines.join('\n'))
    const zstd = path.join(dir, 'session.jsonl.zstd')
    writeFileSync(zstd, Buffer.concat([rawFrame(Buffer.from(`${lines[0]}\n`)), rawFrame(Buffer.from(lines.slice(1).join('\n')))]))
    for (const log of [raw, zstd]) {
      expect(readLog(log, 1 << 20, values).bytes.length).toBeGreaterThan(0)
      expect(() => readLog(log, 1 << 20, values - 1)).toThrow(`its lines hold more than ${values - 1} opening brackets, opening braces and commas outside strings, each an array, an object or one more member or element that a parser builds; audit can hold 1048576 bytes of a log (it keeps the whole log and its report, about 32 times its content) and ${values - 1} values (about 512 bytes each, as events and in the report) in this process's memory; give Node more`)
    }
    // The decoder stops inside a frame once the values are past the limit: the lines come in the
    // frame's first block, and 800 KiB of run-length blocks after them, which a decoder that went on
    // would inflate past the byte limit, and report that instead (the byte limit is named first when
    // both are passed, artifact.ts's pastMost).
    const runs = Array.from({ length: 200 }, () => Buffer.concat([blockHeader(false, 1, 4096), Buffer.from([0x61])]))
    const linesBlock = Buffer.from(`${lines.slice(1).join('\n')}\n`)
    const frame = Buffer.concat([ZSTD_MAGIC, Buffer.from([0x00, WINDOW_128_KIB]), blockHeader(false, 0, linesBlock.length), linesBlock, ...runs, blockHeader(true, 0, 0)])
    writeFileSync(zstd, Buffer.concat([rawFrame(Buffer.from(`${lines[0]}\n`)), frame]))
    expect(() => readLog(zstd, 600_000)).toThrow('its content holds more than 600000 bytes')
    expect(() => readLog(zstd, 600_000, values - 1)).toThrow(`its lines hold more than ${values - 1} opening brackets`)
    // The limit follows the heap: the 1M-event benchmark log's 3.9M values fit a 64-bit Node's default.
    expect(mostAuditValues()).toBeGreaterThan(3_913_384)
    rmSync(dir, { recursive: true })
  })

  it('refuses a folder, saying that check takes folders', async () => {
    const { directory } = logFile(artifact(goodTurn()))
    const { stderr, code } = await runCliHere(['audit', directory, '--tokenizer', 'estimate'])
    expect(code).toBe(2)
    expect(stderr).toBe(`cannot audit ${directory}: it is a folder: audit reads one log file (check takes folders)\n`)
  })

  it('says so when a log read as raw holds zstd bytes', async () => {
    const { directory, log } = logFile(artifact(goodTurn()))
    const zstdBytes = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), readFileSync(log)])
    const { log: misnamed } = logFile(zstdBytes, 'log.jsonl')
    const out = path.join(directory, 'report.json')
    expect(await audit([misnamed, '--out', out, '--tokenizer', 'estimate'])).toBe(1)
    expect((JSON.parse(readFileSync(out, 'utf8')) as AuditReport).log.rejection?.message).toMatch(/\(its bytes start with the zstd magic number: a log is read as zstd when its name ends in \.zstd or \.zst, whether a file or a named pipe; standard input is read as raw\)$/)
  })

  it('says so when a log read as zstd holds a raw log', async () => {
    const { directory, log } = logFile(artifact(goodTurn()), 'log.jsonl.zstd')
    const out = path.join(directory, 'report.json')
    expect(await audit([log, '--out', out, '--tokenizer', 'estimate'])).toBe(1)
    const rejection = (JSON.parse(readFileSync(out, 'utf8')) as AuditReport).log.rejection
    expect(rejection?.code).toBe('JSONL_FRAME_INVALID')
    expect(rejection?.message).toMatch(/ \(its bytes start with "\{", as a raw log's do: a log is read as zstd only when its name ends in \.zstd or \.zst\)$/)
  })
})
