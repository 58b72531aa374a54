// What the commands print and return, run in this process: the usage and unknown commands, the
// heading of a run, which baseline applies to which adapter and the warnings when one applies twice
// or to none, a baseline file that cannot be read, the stderr of an adapter shown only when its run
// fails, where a written baseline takes its reasons from, and the matrix on stdout or in files, with
// the exit status the usage gives for each (conformance/cli-options.ts).
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readBaseline } from '../conformance/baseline.ts'
import { suiteContentHash } from '../conformance/suite-identity.ts'
import { loadVectorCases, loadVectorFolder, projectRoot } from '../conformance/vector-cases.ts'
import { runCliHere } from './support/cli.ts'
import { HOSTILE, hostileAdapterCommand, RAW_CONTROL } from './support/hostile-text.ts'
import { errorsOf, schemaValidator } from './support/schemas.ts'

const MISORDER = 'node tests/fakes/fake-adapter.mjs misorder'
/** The misorder fake, writing a line to its stderr first. */
const NOISY_MISORDER = `sh -c 'printf "noise from the adapter\\t\\033[31mred\\n" >&2; exec ${MISORDER}'`
const CHAIN = ['--case', 'surf-order-chain-*']
const ONE_CASE = ['--case', 'surf-order-append-only-surface']

const scratch = mkdtempSync(join(tmpdir(), 'cli-commands-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Writes a baseline file into the scratch folder and returns its path. */
function baselineFile(name: string, text: string): string {
  const path = join(scratch, name)
  writeFileSync(path, text)
  return path
}

describe('commands and help', () => {
  it('prints the usage for no command and for help, and refuses an unknown command', async () => {
    for (const args of [[], ['help'], ['--help']]) {
      const help = await runCliHere(args)
      expect(help.stdout, args.join(' ')).toMatch(/^usage: dsh-conformance <command> \[options\]\n/)
      expect(help.code, args.join(' ')).toBe(0)
    }
    // A usage error points to the usage instead of printing it, which would scroll the error away.
    const errors: [args: string[], stderr: string][] = [
      [['frobnicate'], 'unknown command frobnicate\n'],
      [['chek', 'log.jsonl'], 'unknown command chek; did you mean check?\n'],
    ]
    for (const [args, stderr] of errors) {
      expect(await runCliHere(args), args.join(' ')).toEqual({ code: 2, stdout: '', stderr: `${stderr}dsh-conformance --help lists the commands and their options\n` })
    }
    // Every command points to its own usage.
    const ownUsage: [args: string[], stderr: string][] = [
      [['run', '--chapters', '05'], 'unknown option --chapters for run; did you mean --chapter?\ndsh-conformance run --help lists its options\n'],
      [['list', '--md', 'x.md'], 'unknown option --md for list\ndsh-conformance list --help lists its options\n'],
      [['matrix', '--baseline', 'b.yaml'], 'unknown option --baseline for matrix\ndsh-conformance matrix --help lists its options\n'],
      [['run', '--vocabulary', 'v0-rc8'], 'unknown option --vocabulary for run: a case chooses its vocabulary with its vocabulary: member (vectors/README.md); check and audit take --vocabulary\ndsh-conformance run --help lists its options\n'],
      [['check', '--frob', 'log.jsonl'], 'unknown option --frob\ndsh-conformance check --help lists its options\n'],
      [['check', '--formt', 'json', 'log.jsonl'], 'unknown option --formt; did you mean --format?\ndsh-conformance check --help lists its options\n'],
      [['audit', 'log.jsonl', '--tokeniser', 'x'], 'unknown option --tokeniser; did you mean --tokenizer?\ndsh-conformance audit --help lists its options\n'],
      // Two letters swapped are one slip, as one left out is.
      [['audit', 'log.jsonl', '--fromat', 'json'], 'unknown option --fromat; did you mean --format?\ndsh-conformance audit --help lists its options\n'],
      [['fuzz', '--run', '5'], 'unknown option --run for fuzz; did you mean --runs?\ndsh-conformance fuzz --help lists its options\n'],
      [['audit', 'log.jsonl', '--out', ''], '--out needs a value\ndsh-conformance audit --help lists its options\n'],
      [['fuzz', '--adapter-cmd', '', '--out', 'x'], '--adapter-cmd needs a value\ndsh-conformance fuzz --help lists its options\n'],
    ]
    for (const [args, stderr] of ownUsage) expect(await runCliHere(args), args.join(' ')).toEqual({ code: 2, stdout: '', stderr })
  })

  it('prints each command\'s usage for --help, and takes -h as --help everywhere', async () => {
    const usages: [args: string[], usage: string][] = [
      [['-h'], 'usage: dsh-conformance <command> [options]'],
      [['run', '--help'], 'usage: dsh-conformance run [options]'],
      [['list', '-h'], 'usage: dsh-conformance list [options]'],
      [['matrix', '--help'], 'usage: dsh-conformance matrix [options]'],
      [['check', '-h'], 'usage: dsh-conformance check'],
      [['audit', '-h'], 'usage: dsh-conformance audit'],
      [['fuzz', '-h'], 'usage: dsh-conformance fuzz'],
      [['serve', '--help'], 'usage: dsh-conformance serve'],
      [['serve', '-h'], 'usage: dsh-conformance serve'],
    ]
    for (const [args, usage] of usages) {
      const help = await runCliHere(args)
      expect(help.stdout, args.join(' ')).toContain(usage)
      expect(help.code, args.join(' ')).toBe(0)
    }
  })

  it('refuses serve with anything but --help alone, instead of starting the server', async () => {
    for (const args of [['serve', '--verbose'], ['serve', '--help', '--verbose'], ['serve', '--adapter', 'reference']]) {
      const refused = await runCliHere(args)
      expect(refused.stderr, args.join(' ')).toMatch(new RegExp(`^serve takes no arguments, not ${args.slice(1).join(' ')}\n\nusage: dsh-conformance serve`))
      expect(refused.stdout, args.join(' ')).toBe('')
      expect(refused.code, args.join(' ')).toBe(2)
    }
  })
})

describe('run: its heading', () => {
  const suiteSize = loadVectorCases().length

  it('counts the whole suite when nothing filters it', async () => {
    const all = await runCliHere(['run'])
    expect(all.stdout.split('\n')[0]).toMatch(new RegExp(`^dsh-session-conformance \\S+, suite sha256:[0-9a-f]{64}: ${suiteSize} cases$`))
    expect(all.code).toBe(0)
  }, 60_000)

  it('gives the selected cases out of the suite, and the filters that chose them', async () => {
    const one = await runCliHere(['run', ...ONE_CASE])
    expect(one.stdout.split('\n')[0]).toMatch(new RegExp(`: 1 of ${suiteSize} cases \\(--case surf-order-append-only-surface\\)$`))
    expect(one.code).toBe(0)
  })

  it('exits 2 when no case matches, running nothing, and names a value that matches no case on its own', async () => {
    const none = await runCliHere(['run', '--case', 'surf-*', '--chapter', '13'])
    expect(none).toEqual({ code: 2, stdout: '', stderr: 'no case matches the filters --chapter 13 --case surf-*\n' })
    // matrix says the same, rather than render a matrix of no cases.
    expect(await runCliHere(['matrix', '--case', 'surf-*', '--chapter', '13'])).toEqual({ code: 2, stdout: '', stderr: 'no case matches the filters --chapter 13 --case surf-*\n' })
    const typo = await runCliHere(['run', '--requirement', 'SURF-5,SURF-55'])
    expect(typo.code).toBe(2)
    expect(typo.stdout).toBe('')
    expect(typo.stderr).toMatch(/^--requirement SURF-55 matches no case: /)
  })
})

describe('run: its progress on a terminal', () => {
  /** Runs `args` in process with stderr a terminal (`tty`) or not. */
  async function runWithTerminal(args: string[], tty: boolean): Promise<{ code: number; stderr: string }> {
    const wasTty = process.stderr.isTTY
    Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true })
    try {
      const { code, stderr } = await runCliHere(args)
      return { code, stderr }
    } finally {
      Object.defineProperty(process.stderr, 'isTTY', { value: wasTty, configurable: true })
    }
  }

  it('counts the cases done, and those failed, on one line of stderr redrawn in place and cleared at the end', async () => {
    const cases = ['--case', 'surf-order-append-only-surface,proc-load-returns-upgraded-events']
    const passing = await runWithTerminal(['run', ...cases, '--adapter', 'reference'], true)
    expect(passing).toEqual({ code: 0, stderr: '\r\x1b[Kreference: 1/2\r\x1b[Kreference: 2/2\r\x1b[K' })
    // The upstream build fails the proc- case, which runs first (its committed baseline lists it): the count says so.
    const failing = await runWithTerminal(['run', ...cases, '--adapter', 'dsh-session@0.1.0-rc.8'], true)
    expect(failing.stderr).toBe('\r\x1b[Kdsh-session@0.1.0-rc.8: 1/2, 1 failed\r\x1b[Kdsh-session@0.1.0-rc.8: 2/2, 1 failed\r\x1b[K')
    expect(failing.code).toBe(1)
  })

  it('draws nothing when stderr is no terminal (a CI log, a file)', async () => {
    expect(await runWithTerminal(['run', ...ONE_CASE], false)).toEqual({ code: 0, stderr: '' })
  })
})

describe('--vectors DIR: cases of one\'s own instead of the suite\'s', () => {
  const folder = join(scratch, 'my-vectors')
  const vectorFile = (cases: string): string => `chapter: 05-surface\ntitle: my cases\ncases:\n${cases}`
  const appends = (id: string, nodes: string): string => `  - id: ${id}
    title: three appends
    requirements: [SURF-3]
    profile: reader
    log: [{user: one}, {user: two}, {user: three}]
    steps:
      - surface: {}
        expect: {value: {nodes: [${nodes}], replacements: [], generation: 0}}
`
  beforeAll(() => {
    mkdirSync(join(folder, 'nested'), { recursive: true })
    writeFileSync(join(folder, 'mine.yaml'), vectorFile(appends('mine-appends', '0, 1, 2')))
    // An expectation that no correct implementation meets: the reference fails it.
    writeFileSync(join(folder, 'nested', 'wrong.yaml'), vectorFile(appends('mine-wrong', '2, 1, 0')))
  })

  it('runs, lists and tabulates the cases under DIR, and names the folder wherever it names the suite', async () => {
    const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }
    const title = `dsh-session-conformance ${version} (vectors under ${folder})`
    const json = join(scratch, 'vectors-report.json')
    const junit = join(scratch, 'vectors-report.xml')
    const run = await runCliHere(['run', '--vectors', folder, '--report', `json=${json},junit=${junit}`])
    const hash = /suite (sha256:[0-9a-f]{64}): 2 cases$/.exec(run.stdout.split('\n')[0]!)?.[1]
    expect(run.stdout.split('\n')[0]).toBe(`${title}, suite ${hash}: 2 cases`)
    expect(hash).toBe(suiteContentHash(loadVectorFolder(folder)))
    expect(run.stdout).toContain('FAIL mine-wrong (my-vectors/nested/wrong.yaml; SURF-3): step 0 (surface): value differs at $.nodes[0]: expected 2, actual 0')
    expect(run.code).toBe(1)
    const report = JSON.parse(readFileSync(json, 'utf8')) as { suite: unknown }
    expect(report.suite).toMatchObject({ caseCount: 2, contentHash: hash, vectors: folder })
    const validReport = schemaValidator('run-report')
    expect(validReport(report), errorsOf(validReport)).toBe(true)
    expect(readFileSync(junit, 'utf8')).toContain(`<testsuites name="${title} (${hash})"`)
    const list = await runCliHere(['list', '--vectors', folder, '--case', 'mine-a*'])
    expect(list).toEqual({ code: 0, stdout: 'mine-appends\treader\tSURF-3\tsurface\tthree appends\n', stderr: '' })
    const matrix = await runCliHere(['matrix', '--vectors', folder])
    expect(matrix.stdout).toContain(`Suite ${title}, content hash \`${hash}\`, all 2 cases.`)
    // SURF-3's two cases: mine-appends passes the reference, mine-wrong fails it.
    expect(matrix.stdout).toMatch(/\n\| SURF-3 [^|\n]*\| ❌ 1\/2 \|\n/)
    expect(matrix.code).toBe(0)
  })

  it('names each file from the folder\'s own name, so the hash is the same from any working folder', async () => {
    const cases = loadVectorFolder(folder)
    expect(cases.map((vector) => vector.file)).toEqual(['my-vectors/mine.yaml', 'my-vectors/nested/wrong.yaml'])
    // The published entry point, run from the scratch folder, reaches the folder by a relative path.
    const bin = join(projectRoot, 'conformance/bin.mjs')
    const run = await promisify(execFile)('node', [bin, 'run', '--vectors', 'my-vectors', '--case', 'mine-appends'], { cwd: scratch })
    expect(run.stdout.split('\n')[0]).toContain(`(vectors under my-vectors), suite ${suiteContentHash(cases)}: 1 of 2 cases`)
  })

  it('writes a baseline of the folder\'s fails over a file of the suite\'s, keeping its other entries and the suite it names', async () => {
    const suiteHash = `sha256:${'1'.repeat(64)}`
    const text = `adapter: reference\nsuiteVersion: 0.0.9\nsuiteHash: "${suiteHash}"\nfailures:\n  - {id: surf-order-chain-fold, reason: "SURF-6: kept, the folder does not hold it"}\n`
    const path = baselineFile('vectors-baseline.yaml', text)
    // Used with the folder, the suite's baseline draws no note of another suite or of ids the folder lacks.
    const used = await runCliHere(['run', '--vectors', folder, '--baseline', path])
    expect(used.stdout).toContain('1 listed case not run')
    expect(used.stdout).not.toContain('note:')
    const written = await runCliHere(['run', '--vectors', folder, '--write-baseline', path])
    expect(written.stdout).toContain(`wrote ${path} (2 known failures of reference)`)
    expect(readBaseline(path)).toEqual({
      adapter: 'reference',
      suiteVersion: '0.0.9',
      suiteHash,
      failures: [
        { id: 'mine-wrong', reason: 'SURF-3: step 0 (surface): value differs at $.nodes[0]: expected 2, actual 0' },
        { id: 'surf-order-chain-fold', reason: 'SURF-6: kept, the folder does not hold it' },
      ],
    })
  })

  it('writes a baseline of the folder, naming it, and holds it to the folder\'s cases: a stale id is noted, fails a strict run and is dropped', async () => {
    const path = join(scratch, 'folder-baseline.yaml')
    const first = await runCliHere(['run', '--vectors', folder, '--write-baseline', path])
    expect(first.stdout).toContain(`wrote ${path} (1 known failure of reference)`)
    const hash = suiteContentHash(loadVectorFolder(folder))
    // The folder's name, which holds from any working folder, not the path as given.
    expect(readBaseline(path)).toMatchObject({ suiteHash: hash, vectors: basename(folder), failures: [{ id: 'mine-wrong' }] })
    writeFileSync(path, `${readFileSync(path, 'utf8')}  - {id: mine-renamed, reason: "SURF-3: a case since renamed"}\n`)
    const strict = await runCliHere(['run', '--vectors', folder, '--baseline', path, '--strict-baseline'])
    expect(strict.stdout).toContain(`the baseline lists 1 case id the vectors under ${folder} do not have (a typo, or a case that left the folder): mine-renamed`)
    expect(strict.code).toBe(1)
    expect((await runCliHere(['run', '--vectors', folder, '--baseline', path])).code).toBe(0)
    const rewritten = await runCliHere(['run', '--vectors', folder, '--baseline', path, '--write-baseline', path])
    expect(rewritten.stdout).toContain(`wrote ${path} (1 known failure of reference; dropped 1 entry the previous one listed, passing now or no case's: mine-renamed)`)
    expect(readBaseline(path).failures.map((entry) => entry.id)).toEqual(['mine-wrong'])
  })

  it('refuses a folder it cannot read, one with no vector file, a case id given twice, and a second --vectors', async () => {
    const empty = join(scratch, 'no-vectors')
    mkdirSync(empty, { recursive: true })
    const twice = join(scratch, 'twice')
    mkdirSync(twice, { recursive: true })
    writeFileSync(join(twice, 'a.yaml'), vectorFile(appends('mine-appends', '0, 1, 2')))
    writeFileSync(join(twice, 'b.yaml'), vectorFile(appends('mine-appends', '0, 1, 2')))
    const broken = join(scratch, 'broken')
    mkdirSync(join(broken, 'nested'), { recursive: true })
    writeFileSync(join(broken, 'nested', 'x.yaml'), vectorFile(appends('mine-appends', '0, 1, 2')).replace('profile: reader', 'profile: reader\n    tokens: 3'))
    const refusals: [args: string[], stderr: string | RegExp][] = [
      [['run', '--vectors', join(scratch, 'absent')], new RegExp(`^dsh-conformance: the vectors cannot be loaded: ${join(scratch, 'absent')}: not a folder of vector files: ENOENT`)],
      [['list', '--vectors', empty], `dsh-conformance: the vectors cannot be loaded: ${empty}: holds no vector file (*.yaml or *.yml)\n`],
      // Each file at the path the reader can open, not at its name in the hash (twice/b.yaml).
      [['list', '--vectors', twice], `dsh-conformance: the vectors cannot be loaded: ${twice}/b.yaml:4: case mine-appends is also at ${twice}/a.yaml:4: a case id names one case\n`],
      [['run', '--vectors', broken], `dsh-conformance: the vectors cannot be loaded: ${broken}/nested/x.yaml: not a valid vector file: line 8, cases[0]: key "tokens" is not allowed here\n`],
      [['list', '--vectors', folder, '--vectors', twice], /^--vectors may be given once\n/],
    ]
    for (const [args, stderr] of refusals) {
      const refused = await runCliHere(args)
      if (typeof stderr === 'string') expect(refused.stderr, args.join(' ')).toBe(stderr)
      else expect(refused.stderr, args.join(' ')).toMatch(stderr)
      expect(refused.stdout, args.join(' ')).toBe('')
      expect(refused.code, args.join(' ')).toBe(2)
    }
  })
})

describe('--vectors DIR holding hostile titles and file names', () => {
  // A title (any string, vector-file.schema.json) and a file name holding a terminal title sequence, a
  // screen clear, CR LF with a forged line after it, a tab and a right-to-left override.
  const TITLE_YAML = 'x\\e]0;TITLE\\a\\e[2J\\r\\nforged: ok\\tfield\\u202e'
  const TITLE_HOSTILE = 'x\u001b]0;TITLE\u0007\u001b[2J\r\nforged: ok\tfield\u202e'
  const TITLE_ESCAPED = 'x\\u001b]0;TITLE\\u0007\\u001b[2J\\u000d\\u000aforged: ok\\u0009field\\u202e'
  const TITLE_RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/

  it('list prints a case\'s title with its controls escaped, on the case\'s one line', async () => {
    const folder = join(scratch, 'hostile-titles')
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'mine.yaml'), `chapter: 05-surface\ntitle: "${TITLE_YAML}"\ncases:\n  - id: mine-hostile\n    title: "${TITLE_YAML}"\n    requirements: [SURF-3]\n    profile: reader\n    log: [{user: one}]\n    steps:\n      - surface: {}\n        expect: {accept: true}\n`)
    const list = await runCliHere(['list', '--vectors', folder])
    expect(list).toEqual({ code: 0, stdout: `mine-hostile\treader\tSURF-3\tsurface\t${TITLE_ESCAPED}\n`, stderr: '' })
    expect(list.stdout).not.toMatch(TITLE_RAW)
  })

  it('names a vector file that does not load with its controls escaped, in one line', async () => {
    const folder = join(scratch, 'hostile-names')
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, `v${TITLE_HOSTILE}.yaml`), 'chapter: 05-surface\ntitle: t\ncases:\n  - id: x\n    title: t\n')
    for (const command of ['list', 'run', 'matrix']) {
      const refused = await runCliHere([command, '--vectors', folder])
      expect(refused.stderr, command).toContain(`dsh-conformance: the vectors cannot be loaded: ${folder}/v${TITLE_ESCAPED}.yaml: not a valid vector file: `)
      expect(refused.stderr.split('\n'), command).toHaveLength(2)
      expect(refused.stderr, command).not.toMatch(TITLE_RAW)
      expect(refused.code, command).toBe(2)
    }
  })
})

describe('run: baselines', () => {
  let misorderFailures: string[] = []

  beforeAll(async () => {
    const written = join(scratch, 'misorder-written.yaml')
    expect((await runCliHere(['run', '--adapter-cmd', MISORDER, ...CHAIN, '--write-baseline', written])).code).toBe(1)
    misorderFailures = readBaseline(written).failures.map(failure => failure.id)
    expect(misorderFailures.length).toBeGreaterThan(0)
  })

  /** A baseline of `adapter` listing the misorder fake's failures, each with `reason`. */
  const misorderBaseline = (name: string, adapter: string, reason = 'SURF-6: planted'): string =>
    baselineFile(name, `adapter: ${adapter}\nfailures:\n${misorderFailures.map(id => `  - {id: ${id}, reason: "${reason}"}\n`).join('')}`)

  it('refuses a baseline file it cannot read, naming it, before running anything', async () => {
    const broken = baselineFile('broken.yaml', 'adapter: [unclosed\n')
    const refused = await runCliHere(['run', ...ONE_CASE, '--baseline', broken])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(broken)
  })

  it('says which file it could not read: the baseline', async () => {
    const refused = await runCliHere(['run', ...ONE_CASE, '--baseline', 'no-such-baseline.yaml'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^cannot read the baseline no-such-baseline\.yaml: no such file or folder\n/)
  })

  it('refuses two baselines of one adapter', async () => {
    const first = misorderBaseline('first.yaml', 'fake-misorder')
    const second = misorderBaseline('second.yaml', 'fake-misorder')
    const refused = await runCliHere(['run', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', first, '--baseline', second])
    expect(refused).toEqual({ code: 2, stdout: '', stderr: 'two baselines name adapter fake-misorder\n' })
    // A name of the files' own is said on one line, escaped: its line feed cannot forge a `wrote` line.
    const forged = ['a.yaml', 'b.yaml'].map(name => misorderBaseline(name, '"x\\nwrote reports/forged.json"'))
    const named = await runCliHere(['run', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', forged[0]!, '--baseline', forged[1]!])
    expect(named).toEqual({ code: 2, stdout: '', stderr: 'two baselines name adapter x\\u000awrote reports/forged.json\n' })
  })

  it('applies a lone baseline to a lone adapter whatever it names, with a note', async () => {
    const other = misorderBaseline('other-name.yaml', 'another-build')
    const applied = await runCliHere(['run', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', other])
    expect(applied.stdout).toContain('note: the baseline is for adapter another-build, the run is of fake-misorder')
    expect(applied.stdout).not.toContain('this suite does not have')
    expect(applied.code).toBe(0)
  })

  it('notes the ids a baseline lists that the suite does not have', async () => {
    const typo = baselineFile('typo.yaml', 'adapter: fake-misorder\nfailures:\n  - {id: surf-order-no-such-case, reason: "SURF-6: a typo"}\n')
    const noted = await runCliHere(['run', '--adapter-cmd', MISORDER, ...ONE_CASE, '--baseline', typo])
    expect(noted.stdout).toContain('note: the baseline lists 1 case id this suite does not have (a typo, or a case that left the suite): surf-order-no-such-case')
    expect(noted.code).toBe(0)
  })

  it('applies no baseline to a lone adapter when several are given and none names it', async () => {
    const [one, two] = [misorderBaseline('one.yaml', 'build-one'), misorderBaseline('two.yaml', 'build-two')]
    const neither = await runCliHere(['run', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', one, '--baseline', two])
    expect(neither.stderr).toContain(`warning: ${one} is the baseline of build-one, which did not run\nwarning: ${two} is the baseline of build-two, which did not run\n`)
    expect(neither.stdout).toMatch(/\nfake-misorder(\s+\d+){4}\s+-\s+-\s+FAILED\n/)
    expect(neither.code).toBe(1)
  })

  it('applies a baseline to the adapter it names only, and warns of one whose adapter did not run', async () => {
    const ofMisorder = misorderBaseline('of-misorder.yaml', 'fake-misorder')
    const ofNobody = misorderBaseline('of-nobody.yaml', 'not-in-this-run')
    const two = await runCliHere(['run', '--adapter', 'reference', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', ofMisorder, '--baseline', ofNobody])
    expect(two.stderr).toBe(`warning: ${ofNobody} is the baseline of not-in-this-run, which did not run\n`)
    expect(two.stdout).toMatch(/\nreference(\s+\d+){4}\s+-\s+-\s+passed\n/)
    expect(two.stdout).toMatch(/\nfake-misorder(\s+\d+){6}\s+passed \(baseline; partial claim\)\n/)
    expect(two.code).toBe(0)

    const elsewhere = await runCliHere(['run', '--adapter', 'reference', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', ofNobody])
    expect(elsewhere.stdout).toMatch(/\nfake-misorder(\s+\d+){4}\s+-\s+-\s+FAILED\n/)
    expect(elsewhere.code).toBe(1)
  })

  it('escapes what a baseline file says in its warnings: a control character cannot drive the terminal or forge a line', async () => {
    const hostile = misorderBaseline('hostile.yaml', '"x\\e]0;title\\a\\e[2J\\nforged: passed"')
    const warned = await runCliHere(['run', '--adapter', 'reference', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', hostile])
    expect(warned.stderr).toBe(`warning: ${hostile} is the baseline of x\\u001b]0;title\\u0007\\u001b[2J\\u000aforged: passed, which did not run\n`)
  })

  it('warns when a baseline applies to two adapters of one name', async () => {
    const ofMisorder = misorderBaseline('shared.yaml', 'fake-misorder')
    const twice = await runCliHere(['run', '--adapter-cmd', MISORDER, '--adapter-cmd', NOISY_MISORDER, ...CHAIN, '--baseline', ofMisorder])
    expect(twice.stderr).toBe(`warning: ${ofMisorder} applies to fake-misorder 0.0.0 (${NOISY_MISORDER}) as it did to fake-misorder 0.0.0 (${MISORDER}): two adapters of this run are named fake-misorder\n`)
    expect(twice.code).toBe(0)
  })

  it('keeps in the reports a warning about the run as a whole: a baseline of an adapter that did not run', async () => {
    const misspelt = misorderBaseline('misspelt.yaml', 'fake-misordr')
    const json = join(scratch, 'misspelt-report.json')
    const run = await runCliHere(['run', '--adapter', 'reference', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', misspelt, '--report', `json=${json}`])
    const warning = `${misspelt} is the baseline of fake-misordr, which did not run`
    expect(run.stderr).toBe(`warning: ${warning}\n`)
    expect((JSON.parse(readFileSync(json, 'utf8')) as { warnings?: string[] }).warnings).toEqual([warning])
  })

  it('shows an adapter\'s stderr when its run fails, not when a baseline excuses its failures', async () => {
    const failed = await runCliHere(['run', '--adapter-cmd', NOISY_MISORDER, ...CHAIN])
    // Its tabs kept, its other control characters escaped, as everything the console shows.
    expect(failed.stderr).toContain("--- last lines of fake-misorder's stderr ---\nnoise from the adapter\t\\u001b[31mred\n")
    expect(failed.code).toBe(1)
    const excused = await runCliHere(['run', '--adapter-cmd', NOISY_MISORDER, ...CHAIN, '--baseline', misorderBaseline('excuses.yaml', 'fake-misorder')])
    expect(excused.stderr).toBe('')
    expect(excused.code).toBe(0)
  })

  it('keeps the reasons of the baseline file it writes over, when no --baseline gives them', async () => {
    const path = misorderBaseline('rewritten.yaml', 'fake-misorder', 'SURF-6: reason kept from the file')
    const rewritten = await runCliHere(['run', '--adapter-cmd', MISORDER, ...CHAIN, '--write-baseline', path])
    expect(rewritten.stdout).toContain(`wrote ${path} (${misorderFailures.length} known failures of fake-misorder)`)
    expect(rewritten.code).toBe(1)
    expect(readBaseline(path).failures.map(failure => failure.reason)).toEqual(misorderFailures.map(() => 'SURF-6: reason kept from the file'))
  })

  it('takes the reasons of the --baseline given, writing to another file', async () => {
    const given = misorderBaseline('given.yaml', 'fake-misorder', 'SURF-6: from the given file')
    const elsewhere = join(scratch, 'elsewhere.yaml')
    expect((await runCliHere(['run', '--adapter-cmd', MISORDER, ...CHAIN, '--baseline', given, '--write-baseline', elsewhere])).code).toBe(0)
    expect(readBaseline(elsewhere).failures.map(failure => failure.reason)).toEqual(misorderFailures.map(() => 'SURF-6: from the given file'))
  })
})

describe('run: writing baselines', () => {
  it('writes none for an adapter that could not start, and still writes the others', async () => {
    // A command that is not there: an unknown --adapter name is a usage error, refused before any run.
    const template = join(scratch, 'started-{adapter}.yaml')
    const written = await runCliHere(['run', '--adapter-cmd', 'no-such-build', '--adapter-cmd', MISORDER, ...CHAIN, '--write-baseline', template])
    expect(written.stdout).toContain('no-such-build: could not be started: ')
    expect(written.stdout).toContain(`wrote ${join(scratch, 'started-fake-misorder.yaml')} (`)
    expect(written.stdout).not.toContain('started-no-such-build')
    expect(written.code).toBe(1)
  })

  it('says how many errors it left out, since no baseline excuses one', async () => {
    const path = join(scratch, 'hang.yaml')
    const written = await runCliHere(['run', '--adapter-cmd', 'node tests/fakes/fake-adapter.mjs hang', '--timeout', '300', ...ONE_CASE, '--write-baseline', path])
    expect(written.stdout).toContain(`wrote ${path} (0 known failures of fake-hang; 1 error not listed, since no baseline excuses an error (a listed case that erred keeps its entry))\n`)
    expect(readBaseline(path).failures).toEqual([])
    expect(written.code).toBe(1)
  })
})

describe('matrix', () => {
  it('prints Markdown on stdout when no file is asked for', async () => {
    const printed = await runCliHere(['matrix', ...ONE_CASE])
    expect(printed.stdout.split('\n')[0]).toBe('# Compatibility matrix')
    expect(printed.stdout).toContain('reference')
    expect(printed.stderr).toBe('')
    expect(printed.code).toBe(0)
  })

  it('writes only the files asked for, and says so', async () => {
    const html = join(scratch, 'matrix.html')
    const written = await runCliHere(['matrix', ...ONE_CASE, '--html', html])
    expect(written).toEqual({ code: 0, stdout: `wrote ${html}\n`, stderr: '' })
    expect(readFileSync(html, 'utf8')).toMatch(/^<!DOCTYPE html>/i)
  })

  it('prints an adapter\'s name, and why another did not start, with their controls escaped: nothing of theirs reaches the terminal raw or makes a line', async () => {
    const unstartable = `node -e 'process.stderr.write(${JSON.stringify(HOSTILE)}); process.exit(3)'`
    const printed = await runCliHere(['matrix', '--adapter-cmd', hostileAdapterCommand(HOSTILE), '--adapter-cmd', unstartable, ...ONE_CASE])
    expect(printed.stdout).not.toMatch(RAW_CONTROL)
    expect(printed.stdout).toContain(String.raw`| requirement | evil\\u001b\]0;TITLE\\u0007\\u001b\[2J forged: ok\\u202e | `)
    expect(printed.stdout.split('\n').filter((line) => line.includes('forged'))).toHaveLength(3)
    expect(printed.stderr).not.toMatch(RAW_CONTROL)
    expect(printed.stderr).toMatch(/^cannot start adapter node -e /)
    // Under it, escaped as run prints it, the last lines the adapter wrote to stderr.
    expect(printed.stderr).toMatch(/\n--- last lines of node -e [^\n]*'s stderr ---\nevil\\u001b/)
    expect(printed.code).toBe(1)
  })

  it('exits 1 when an adapter cannot start, saying why, and 2 when no case matches', async () => {
    const unstarted = await runCliHere(['matrix', '--adapter', 'reference', '--adapter-module', 'conformance/wording.ts', ...ONE_CASE])
    expect(unstarted.stderr).toMatch(/^cannot start adapter conformance\/wording\.ts: conformance\/wording\.ts exports no adapter[^\n]*\n$/)
    expect(unstarted.code).toBe(1)
    const none = await runCliHere(['matrix', '--case', 'no-such-case-*'])
    expect(none).toEqual({ code: 2, stdout: '', stderr: '--case no-such-case-* matches no case id\n' })
  })

  it('exits 1 when an adapter breaks the protocol after its last reply, saying so, its cells kept', async () => {
    // Once exit 0 and nothing said, where run gives 1: its close() threw.
    process.env['MODULE_MISBEHAVIOUR'] = 'close-throws'
    try {
      const stopped = await runCliHere(['matrix', '--adapter-module', 'tests/fakes/module-misbehaviours.ts', ...ONE_CASE])
      expect(stopped.stdout).toContain('module-misbehaviour broke the protocol after its last reply: close failed in the adapter')
      expect(stopped.stderr).toBe('adapter tests/fakes/module-misbehaviours.ts broke the protocol after its last reply: close failed in the adapter\n')
      expect(stopped.code).toBe(1)
    } finally {
      delete process.env['MODULE_MISBEHAVIOUR']
    }
  })
})
