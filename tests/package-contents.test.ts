// What a project that installs the suite gets: the files `npm pack` puts in the package (package.json's
// `files`), and the commands and entry points run from those files alone. The package is packed and
// unpacked into a temporary folder whose node_modules is this project's, so only its own files differ
// from a checkout.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../conformance/vector-cases.ts'

let folder = ''
let unpacked = ''

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'dsh-package-'))
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', folder], { cwd: projectRoot, encoding: 'utf8' })) as { filename: string }[]
  execFileSync('tar', ['-xzf', join(folder, packed!.filename), '-C', folder])
  unpacked = join(folder, 'package')
  symlinkSync(join(projectRoot, 'node_modules'), join(folder, 'node_modules'), 'dir')
}, 120_000)

afterAll(() => {
  if (folder !== '') rmSync(folder, { recursive: true, force: true })
})

/** The .ts and .mjs files under `folders` of `root`, at any depth. */
function sourceFiles(root: string, folders: readonly string[]): string[] {
  return folders.flatMap(folder => readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter(name => /\.(ts|mjs)$/.test(name)).map(name => join(root, folder, name)))
}

/** The packages a source file imports statically or with a literal import(): `node:` modules and relative paths left out. */
function importedPackages(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'([^'.][^']*)'/gm)].map(match => match[1]!)
  return specifiers.filter(specifier => !specifier.startsWith('node:'))
    .map(specifier => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'))
}

/** The unpacked package's command line, run from the temporary folder. */
function cli(args: readonly string[]): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, [join(unpacked, 'conformance/bin.mjs'), ...args], { cwd: folder, encoding: 'utf8', timeout: 120_000 })
}

describe('the published package', () => {
  it('holds what the commands and the entry points read, and none of the project\'s own tests, scripts or settings', () => {
    expect(readdirSync(unpacked).sort()).toEqual([
      'CHANGELOG.md', 'LICENSE', 'README.md', 'baselines', 'conformance', 'docs', 'examples', 'generated', 'package.json', 'reference', 'schemas', 'spec', 'vectors',
    ])
    // What the README sends a user to in node_modules.
    expect(existsSync(join(unpacked, 'examples/python-adapter/adapter.py'))).toBe(true)
  })

  it('runs the suite against the reference from its own files', () => {
    const run = cli(['run', '--adapter', 'reference', '--chapter', '05'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/\d+ passed, 0 failed, 0 errors, 0 skipped/)
  }, 120_000)

  it('checks and audits a stored log from its own files', () => {
    const header = { type: 'session', version: 0, id: 'packed', createdAt: 0, cwd: '/work', delegationDepth: 0 }
    const user = { type: 'user/message', seq: 0, time: 1, data: { id: 'u0', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }, surfaceOp: 'append' }
    const log = join(folder, 'log.jsonl')
    writeFileSync(log, `${JSON.stringify(header)}\n${JSON.stringify(user)}\n`)
    const checked = cli(['check', log])
    expect([checked.status, checked.stderr]).toEqual([0, ''])
    const audited = cli(['audit', log, '--tokenizer', 'estimate', '--format', 'json'])
    expect(audited.stderr).toBe('')
    expect((JSON.parse(audited.stdout as string) as { rows: unknown[] }).rows).toHaveLength(7)
  }, 120_000)

  it('lists every package its commands import among its dependencies, not its devDependencies', () => {
    // The tests above borrow this project's node_modules, devDependencies included, so they cannot see
    // a missing dependency; an installing project gets only `dependencies`. The vitest entry imports
    // vitest, which a project that uses it has.
    const { dependencies } = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    const imported = new Map<string, string>()
    for (const file of sourceFiles(unpacked, ['conformance', 'reference'])) {
      if (file.endsWith('conformance/vitest.ts')) continue
      for (const name of importedPackages(readFileSync(file, 'utf8'))) imported.set(name, file.slice(unpacked.length + 1))
    }
    expect(imported.size).toBeGreaterThan(3)
    const missing = [...imported].filter(([name]) => !(name in dependencies)).map(([name, file]) => `${name} (${file})`)
    expect(missing).toEqual([])
  })

  it('exports decodeTagged, encodeTagged and the reference adapter to a project that imports the package by name', () => {
    // A project with the package in its node_modules; the package's own dependencies are found above it.
    const project = join(folder, 'project')
    mkdirSync(join(project, 'node_modules'), { recursive: true })
    symlinkSync(unpacked, join(project, 'node_modules/dsh-session-conformance'), 'dir')
    const script = join(project, 'adapter.mjs')
    writeFileSync(script, `import { decodeTagged, encodeTagged, referenceAdapter } from 'dsh-session-conformance'
console.log(Object.is(decodeTagged({ $dsh: '-0' }), -0), JSON.stringify(encodeTagged(undefined)), referenceAdapter.meta.name)\n`)
    // Under tsx, as the README says: the package is TypeScript source.
    const used = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: project, encoding: 'utf8' })
    expect(used.stderr).toBe('')
    expect(used.stdout).toMatch(/^true {"\$dsh":"undefined"} \S+\n$/)
  }, 60_000)
})
