// The folder walk of `check` (conformance/check/walk.ts) in this process, where a mutation run reaches it
// (most walk tests run `check` in a child): name order, subfolders and linked folders, a link loop, a
// file named twice, standard input; and what it does not read: a named pipe or device, met directly or
// through a link (a link to a pipe once hung `check FOLDER`, waiting for a writer).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { findArtifacts, realPathOf } from '../../conformance/check/walk.ts'
import { tempFolder } from './support.ts'
import { text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

function tree(name: string): string {
  const root = path.join(folder.dir, name)
  mkdirSync(root, { recursive: true })
  return root
}

describe('findArtifacts, in this process', () => {
  it('walks a folder in name order, into subfolders and linked folders, for log names only', () => {
    const root = tree('walk')
    const other = tree('elsewhere')
    for (const name of ['b.jsonl', 'a.jsonl.zstd', 'c.jsonl.zst', 'notes.txt', 'a.json']) writeFileSync(path.join(root, name), '')
    mkdirSync(path.join(root, 'sub'))
    writeFileSync(path.join(root, 'sub', 'd.jsonl'), '')
    writeFileSync(path.join(other, 'e.jsonl'), '')
    symlinkSync(other, path.join(root, 'linked'))
    expect(findArtifacts([root])).toEqual(['a.jsonl.zstd', 'b.jsonl', 'c.jsonl.zst', 'linked/e.jsonl', 'sub/d.jsonl']
      .map(name => ({ kind: 'file', path: path.join(root, name), otherNames: [] })))
  })

  it('sorts by the names as strings, not in the byte order the platform may list them in', () => {
    // libuv (Node's readdir on POSIX) already lists a folder in UTF-8 byte order, so the walk's own sort
    // only shows where UTF-16 order differs: U+FF5E (UTF-8 EF BD 9E) against U+1F600 (F0 9F 98 80, but
    // the surrogate D83D in UTF-16).
    const root = tree('order')
    for (const name of ['x\uFF5E.jsonl', 'x\u{1F600}.jsonl', 'y.jsonl']) writeFileSync(path.join(root, name), '')
    expect(findArtifacts([root]).map(found => path.basename(found.path))).toEqual(['x\u{1F600}.jsonl', 'x\uFF5E.jsonl', 'y.jsonl'])
  })

  it('lists a file whose valid UTF-8 name holds U+FFFD itself, and a dangling link, as files', () => {
    const root = tree('odd-names')
    writeFileSync(path.join(root, 'a\uFFFD.jsonl'), '')
    symlinkSync(path.join(root, 'nowhere'), path.join(root, 'gone.jsonl'))
    expect(findArtifacts([root])).toEqual(['a\uFFFD.jsonl', 'gone.jsonl'].map(name => ({ kind: 'file', path: path.join(root, name), otherNames: [] })))
  })

  it('walks a folder once when a link loops back to it', () => {
    const root = tree('loop')
    writeFileSync(path.join(root, 'a.jsonl'), '')
    symlinkSync('.', path.join(root, 'again'))
    expect(findArtifacts([root])).toEqual([{ kind: 'file', path: path.join(root, 'a.jsonl'), otherNames: [] }])
  })

  it('reports a folder with no log, and a named pipe met in a folder, without reading them', () => {
    const empty = tree('empty')
    writeFileSync(path.join(empty, 'readme.md'), '')
    expect(findArtifacts([empty])).toEqual([{ kind: 'folder', path: empty, message: `no *.jsonl, *.jsonl.zstd or *.jsonl.zst file under ${empty}` }])
    const pipes = tree('pipes')
    execFileSync('mkfifo', [path.join(pipes, 'p.jsonl')])
    expect(findArtifacts([pipes])).toMatchObject([{ kind: 'unreadable', path: path.join(pipes, 'p.jsonl') }])
  })

  it('lists a file once, where it was first named, with its other names', () => {
    const root = tree('names')
    const log = path.join(root, 'a.jsonl')
    writeFileSync(log, '')
    const link = path.join(root, 'link.jsonl')
    symlinkSync(log, link)
    expect(findArtifacts([log])).toEqual([{ kind: 'file', path: log, otherNames: [] }])
    expect(findArtifacts([log, root, link, log, `${root}/../names/a.jsonl`])).toEqual([
      { kind: 'file', path: log, otherNames: [link, `${root}/../names/a.jsonl`] },
    ])
  })

  it('names a file as a folder walk names it, however it was spelled (the name --known globs match)', () => {
    const root = tree('spelled')
    const log = path.join(root, 'a.jsonl')
    writeFileSync(log, '')
    expect(findArtifacts([`${root}/./a.jsonl`])).toEqual([{ kind: 'file', path: log, otherNames: [] }])
    expect(findArtifacts([`${root}//a.jsonl`])).toEqual([{ kind: 'file', path: log, otherNames: [] }])
    expect(findArtifacts([`${root}/.`])).toEqual([{ kind: 'file', path: log, otherNames: [] }])
    // A `..` is kept: through a link to a folder it leads elsewhere than the text says.
    expect(findArtifacts([`${root}/../spelled/a.jsonl`])).toEqual([{ kind: 'file', path: `${root}/../spelled/a.jsonl`, otherNames: [] }])
    expect(findArtifacts([`${root}/./missing.jsonl`])).toEqual([expect.objectContaining({ kind: 'unreadable', path: `${root}/missing.jsonl` })])
    // A final slash says the path is a folder: a file so named is not read as one.
    for (const asFolder of [`${root}/a.jsonl/`, `${root}/a.jsonl/.`, `${root}//a.jsonl//`]) {
      expect(findArtifacts([asFolder]), asFolder).toEqual([expect.objectContaining({ kind: 'unreadable', path: `${root}/a.jsonl/` })])
    }
  })

  it('walks `link/..` as the folder above the link\'s target, naming its files by that path', () => {
    // path.join would make `link/../a.jsonl` `a.jsonl` beside the link: another file, or none.
    const root = tree('through-link')
    mkdirSync(path.join(root, 'real', 'inner'), { recursive: true })
    writeFileSync(path.join(root, 'real', 'a.jsonl'), 'the file the walk found')
    writeFileSync(path.join(root, 'a.jsonl'), 'a file beside the link')
    symlinkSync(path.join(root, 'real', 'inner'), path.join(root, 'link'))
    const found = findArtifacts([`${root}/link/..`])
    expect(found).toEqual([{ kind: 'file', path: `${root}/link/../a.jsonl`, otherNames: [] }])
    expect(readFileSync(`${root}/link/../a.jsonl`, 'utf8')).toBe('the file the walk found')
    expect(findArtifacts([`${root}/link/../`])).toEqual(found)
    // Two files, not one named twice: their identity is the system's realpath, not the text's.
    expect(findArtifacts([`${root}/link/../a.jsonl`, `${root}/a.jsonl`]).map(item => item.kind === 'file' && item.otherNames)).toEqual([[], []])
  })

  it('names the files of `.` as they are, as a walk of any folder names them less its `.` parts', () => {
    const root = tree('dot')
    writeFileSync(path.join(root, 'a.jsonl'), text(turnLines()))
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    for (const named of ['.', './', 'a.jsonl', './a.jsonl']) {
      const run = spawnSync(process.execPath, [bin, 'check', '--no-layout', named], { encoding: 'utf8', cwd: root, timeout: 15_000 })
      expect(run.stdout.split('\n')[0], named).toBe('a.jsonl: valid, 6 events')
    }
  }, 30_000)

  it('takes standard input as itself, not as the file it was redirected from', () => {
    expect(realPathOf('/dev/stdin')).toBe('/dev/stdin')
  })
})

describe('a folder walk and a link to a named pipe', () => {
  const logs = path.join(folder.dir, 'logs')
  mkdirSync(logs, { recursive: true })
  execFileSync('mkfifo', [path.join(folder.dir, 'pipe'), path.join(logs, 'direct.jsonl')])
  symlinkSync('../pipe', path.join(logs, 'linked.jsonl'))
  writeFileSync(path.join(logs, 'ok.jsonl'), text(turnLines()))

  it('reports the link unreadable, as it reports the pipe itself', () => {
    const found = findArtifacts([logs])
    expect(found.find(item => item.path === path.join(logs, 'direct.jsonl'))?.kind).toBe('unreadable')
    expect(found.find(item => item.path === path.join(logs, 'linked.jsonl'))?.kind).toBe('unreadable')
    expect(found.find(item => item.path === path.join(logs, 'ok.jsonl'))?.kind).toBe('file')
  })

  it('so `check FOLDER` ends instead of waiting for a writer', () => {
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const run = spawnSync(process.execPath, [bin, 'check', logs], { encoding: 'utf8', timeout: 15_000 })
    expect(run.signal, 'check was killed after 15 s: it waits on the pipe').toBeNull()
    // As for the pipe met directly: the file is unchecked (CHECK_IO_ERROR), which makes the exit status 2.
    expect(run.status).toBe(2)
    expect(run.stdout).toContain(`${path.join(logs, 'linked.jsonl')}: unchecked (CHECK_IO_ERROR)`)
  }, 30_000)
})
