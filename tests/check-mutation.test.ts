// `npm run check:mutation` (scripts/check-mutation.ts) and the stamp of a mutation run's inputs
// (scripts/mutation-inputs.ts): the committed reports match the project, and each kind of input that
// changes makes them stale. The copies are of the project's own inputs, so a copy's reports start out
// matching it as the project's do. Their paths hold a space, which a file URL escapes.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { projectRoot } from '../conformance/vector-cases.ts'
import { citationProblems, mutationReportProblems, stampProblems } from '../scripts/check-mutation.ts'
import { filesUnder } from '../scripts/generated-files.ts'
import { MUTATION_INPUT_FILES, globRegExp, mutatedFiles, mutationInputsStamp, stampedSha256 } from '../scripts/mutation-inputs.ts'

const REPORTS = ['docs/mutation.md', 'docs/mutation-directives.md']
const copies: string[] = []

/** A copy of what the stamp and the check read: the inputs, package.json and the two reports. */
function copyOfInputs(): string {
  const copy = mkdtempSync(join(tmpdir(), 'check mutation '))
  copies.push(copy)
  for (const path of ['reference', 'package.json', 'generated/vectors.bundle.json', ...MUTATION_INPUT_FILES, ...REPORTS]) {
    mkdirSync(dirname(join(copy, path)), { recursive: true })
    cpSync(join(projectRoot, path), join(copy, path), { recursive: true })
  }
  return copy
}

function prepend(file: string, text: string): void {
  writeFileSync(file, text + readFileSync(file, 'utf8'))
}

afterEach(() => {
  for (const copy of copies.splice(0)) rmSync(copy, { recursive: true, force: true })
})

describe('the committed mutation reports', () => {
  it('carry the stamp of the inputs they were written from, and cite directive lines', async () => {
    expect(await mutationReportProblems(projectRoot)).toEqual([])
  })

  it('go stale when a line is inserted at the top of a mutated module', async () => {
    const copy = copyOfInputs()
    expect(await mutationReportProblems(copy)).toEqual([])
    // The first line the directives audit cites, whichever it is after the last run.
    const [, file, line] = /^\| (reference\/[^\s|:]+):(\d+) \|/m.exec(readFileSync(join(copy, 'docs/mutation-directives.md'), 'utf8'))!
    prepend(join(copy, file!), '// one more line\n')
    const problems = await mutationReportProblems(copy)
    const stale = problems.filter(problem => / is stale: it was written from inputs with sha256 /.test(problem))
    expect(stale.map(problem => problem.split(' ')[0])).toEqual(REPORTS)
    // Named more precisely than by the stamp: the cited line no longer follows its directive.
    expect(problems).toContainEqual(expect.stringMatching(new RegExp(
      String.raw`^docs/mutation-directives\.md:\d+ cites ${file!.replaceAll('.', '\\.')}:${line}, `
        + String.raw`but line ${Number(line) - 1} of ${file!.replaceAll('.', '\\.')} is not a \`// Stryker disable next-line\` directive$`,
    )))
  })
})

describe('the stamp of the inputs', () => {
  const changes: Array<[string, (copy: string) => void]> = [
    ['the Stryker config', copy => appendFileSync(join(copy, 'stryker.config.mjs'), '\n')],
    ['the ignorer plugin', copy => appendFileSync(join(copy, 'scripts/stryker-plugins.mjs'), '\n')],
    ['the vitest mutation config', copy => appendFileSync(join(copy, 'vitest.mutation.config.ts'), '\n')],
    ['the vectors\' mutation suite', copy => appendFileSync(join(copy, 'tests/mutation/vectors.mutation.ts'), '\n')],
    ['a new mutated module', copy => writeFileSync(join(copy, 'reference/new-module.ts'), 'export {}\n')],
    ['the Stryker version', (copy) => {
      const manifest = join(copy, 'package.json')
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/("@stryker-mutator\/core": ")[^"]+/, '$19.9.9'))
    }],
  ]

  it.each(changes)('changes with %s', async (_, change) => {
    const copy = copyOfInputs()
    const before = await mutationInputsStamp(copy)
    change(copy)
    expect((await mutationInputsStamp(copy)).sha256).not.toBe(before.sha256)
  })

  it('stays put when a file outside the inputs changes', async () => {
    const copy = copyOfInputs()
    const before = await mutationInputsStamp(copy)
    writeFileSync(join(copy, 'reference/notes.md'), 'not mutated\n')
    prepend(join(copy, 'docs/mutation.md'), '\n')
    // The vectors are left out on purpose (scripts/mutation-inputs.ts).
    const bundle = join(copy, 'generated/vectors.bundle.json')
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(/"contentHash":"sha256:[0-9a-f]/, '"contentHash":"sha256:x'))
    // The runner's judge is left out on purpose (scripts/mutation-inputs.ts).
    mkdirSync(join(copy, 'conformance'), { recursive: true })
    writeFileSync(join(copy, 'conformance/expectations.ts'), 'changed\n')
    expect(await mutationInputsStamp(copy)).toEqual(before)
  })

  it('is read back from the line a report carries', async () => {
    const stamp = await mutationInputsStamp(projectRoot)
    expect(stamp.line).toMatch(/^- Inputs: sha256 [0-9a-f]{64} of reference\/\*\*\/\*\.ts \(\d+ files\), stryker\.config\.mjs, /)
    expect(stampedSha256(`# Report\n\n- Run ended: now\n${stamp.line}\n- Score: 100%\n`)).toBe(stamp.sha256)
    expect(stampedSha256('# Report\n\n- Inputs: none\n')).toBeUndefined()
  })
})

describe("the mutate patterns of stryker.config.mjs", () => {
  it('match as globs: ** any folders, * and ? within a name', () => {
    expect(globRegExp('reference/**/*.ts').test('reference/a.ts')).toBe(true)
    expect(globRegExp('reference/**/*.ts').test('reference/zstd/b.ts')).toBe(true)
    expect(globRegExp('reference/**/*.ts').test('reference/a.tsx')).toBe(false)
    expect(globRegExp('reference/*.ts').test('reference/zstd/b.ts')).toBe(false)
    expect(globRegExp('reference/?.ts').test('reference/ab.ts')).toBe(false)
    expect(() => globRegExp('reference/{a,b}.ts')).toThrow(/does not read/)
  })

  it('take out the files of a "!" pattern and list the rest in ordinal order', () => {
    const copy = copyOfInputs()
    writeFileSync(join(copy, 'reference/Upper.ts'), '')
    const files = mutatedFiles(copy, ['reference/**/*.ts', '!reference/zstd*.ts'])
    expect(files).toContain('reference/Upper.ts')
    expect(files.indexOf('reference/Upper.ts')).toBeLessThan(files.indexOf('reference/byte-output.ts'))
    expect(files.filter(file => file.startsWith('reference/zstd'))).toEqual([])
  })

  it('refuse a pattern that names no folder, which would walk node_modules too', () => {
    expect(() => mutatedFiles(copyOfInputs(), ['**/*.ts'])).toThrow(/the mutate pattern \*\*\/\*\.ts names no folder/)
  })

  it('are walked with a broken symbolic link counted as a file, not a crash', () => {
    const copy = copyOfInputs()
    symlinkSync(join(copy, 'reference/no-such-file.ts'), join(copy, 'reference/dangling.ts'))
    expect(filesUnder(copy, 'reference')).toContain('reference/dangling.ts')
  })
})

describe('what the check says', () => {
  const stamp = { sha256: 'b'.repeat(64), line: `- Inputs: sha256 ${'b'.repeat(64)} of x` }

  it('names a report with another stamp or none as stale', () => {
    expect(stampProblems('docs/mutation.md', stamp.line, stamp)).toEqual([])
    expect(stampProblems('docs/mutation.md', `- Inputs: sha256 ${'a'.repeat(64)} of x`, stamp)).toEqual([
      `docs/mutation.md is stale: it was written from inputs with sha256 ${'a'.repeat(64)}, and they hash to ${'b'.repeat(64)} now `
        + '(a mutated file, the Stryker or vitest mutation config, the ignorer plugin, the vectors\' mutation suite or the Stryker version changed)',
    ])
    expect(stampProblems('docs/mutation.md', '# no stamp\n', stamp)).toEqual([
      'docs/mutation.md is stale: it has no "- Inputs: sha256 …" line, so it predates the stamp',
    ])
  })

  it('checks that each cited line follows a directive', () => {
    const audit = ['| line | killed |', '|---|---|', '| reference/a.ts:3 | x |', '| reference/a.ts:2 | x |', '| reference/gone.ts:2 | x |']
    const sources: Record<string, string> = { 'reference/a.ts': 'const a = 1\n// Stryker disable next-line X: why\nif (a) {}\n' }
    expect(citationProblems(audit.join('\n'), file => sources[file])).toEqual([
      'docs/mutation-directives.md:4 cites reference/a.ts:2, '
        + 'but line 1 of reference/a.ts is not a `// Stryker disable next-line` directive',
      'docs/mutation-directives.md:5 cites reference/gone.ts:2, a file that does not exist',
    ])
  })
})
