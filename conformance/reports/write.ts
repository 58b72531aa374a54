// `--report json=PATH,junit=PATH,md=PATH`: which reports to write, and writing them; and how every
// command writes an output file (made whole beside its place, then renamed into it).
import { chmodSync, existsSync, mkdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync, type Stats } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { RunReport } from '../../generated/types/index.ts'
import { jsonReport } from './json.ts'
import { junitReport } from './junit.ts'
import { markdownReport } from './markdown.ts'
import { errorMessage } from '../wording.ts'

const RENDERERS = { json: jsonReport, junit: junitReport, md: markdownReport } as const

export type ReportFormat = keyof typeof RENDERERS
export type ReportTargets = Partial<Record<ReportFormat, string>>

export const REPORT_FORMATS = Object.keys(RENDERERS) as ReportFormat[]

/**
 * The FORMAT=PATH parts of one --report value: split at commas, a piece without `=` continuing the path
 * before it, so that a path may hold a comma (`md=a,b.md`).
 */
function reportParts(text: string): string[] {
  const parts: string[] = []
  for (const piece of text.split(',')) {
    if (parts.length > 0 && !piece.includes('=')) parts[parts.length - 1] += `,${piece}`
    else parts.push(piece)
  }
  return parts
}

/** Adds the targets of one --report value to `targets`; returns what is wrong with it, if anything. */
export function addReportTargets(targets: ReportTargets, text: string): string | undefined {
  for (const part of reportParts(text)) {
    const [format, path] = [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]
    if (!part.includes('=') || path === '') return `--report takes FORMAT=PATH[,FORMAT=PATH…], not "${part}"`
    if (!(REPORT_FORMATS as string[]).includes(format)) return `unknown report format "${format}" (formats: ${REPORT_FORMATS.join(', ')})`
    const earlier = targets[format as ReportFormat]
    if (earlier !== undefined && earlier !== path) return `--report names two ${format} reports, ${earlier} and ${path}: a run writes one of each format`
    const sharing = REPORT_FORMATS.find((other) => other !== format && targets[other] === path)
    if (sharing !== undefined) return `--report writes the ${sharing} and the ${format} report both to ${path}: one would replace the other`
    targets[format as ReportFormat] = path
  }
  return undefined
}

export interface Written {
  paths: string[]
  /** What could not be written, one message per report; the other reports are written all the same. */
  errors: string[]
}

/** `folder`, or the nearest of its parents that exists, when it is a file: what stops `folder` being made. */
function fileInTheWay(folder: string): string | undefined {
  for (let at = folder; at !== dirname(at); at = dirname(at)) {
    if (existsSync(at)) return statSync(at).isDirectory() ? undefined : at
  }
  return undefined
}

/** An error naming the file that stands where `folder` or one of its parents should be, if one does. */
function fileInTheWayError(folder: string): Error | undefined {
  const blocking = fileInTheWay(folder)
  return blocking === undefined ? undefined : new Error(`${blocking} is a file, not a folder`)
}

/**
 * Makes `folder` and whichever of its parents are missing, one at a time: Node's recursive mkdir
 * retries for ever where the system answers ENOENT although the parent exists (under /proc).
 */
export function makeFolder(folder: string): void {
  const missing: string[] = []
  for (let at = resolve(folder); !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.push(at)
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path)
    } catch (error) {
      // Made meanwhile by another process: what was wanted.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path).isDirectory()) throw error
    }
  }
}

/** What `path` names, a link followed; undefined when it names nothing that can be reached (the write then says why). */
export function statOf(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/** The path a link leads to; the path itself when it names nothing yet (or a link to nothing). */
function linkTarget(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}

/** Removes the file this process began beside its target, if it made one; a folder of that name stays. */
function removeIfMade(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // Nothing was made, or it is not a file to remove.
  }
}

/** The descriptor a path such as /dev/stdout or /dev/fd/3 names in this process, if it names one. */
export function openDescriptor(path: string): number | undefined {
  const match = /^\/(?:dev\/(?:(stdout)|(stderr)|fd\/(\d+))|proc\/self\/fd\/(\d+))$/.exec(resolve(path))
  if (match === null) return undefined
  return match[1] !== undefined ? 1 : match[2] !== undefined ? 2 : Number(match[3] ?? match[4])
}

/** Writes `text` through a descriptor this process holds, whole. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // A reader that stopped reading (`| head`) is no error of ours, as for the console's output (cli.ts).
      if (code === 'EPIPE') return
      // A pipe Node made non-blocking, full for now: written again once its reader has taken some.
      if (code !== 'EAGAIN') throw error
    }
  }
}

/**
 * Writes `text` to `path`, a link followed. A regular file, or a new one, is replaced whole: the text
 * goes to a file beside it that is then renamed over it, so a write that fails (a full disk, a killed
 * process) leaves the old file as it was, never part of the new one; the old file's permissions stay.
 * A descriptor the process holds is written through; anything else (a device, a named pipe, a folder)
 * is written as it is.
 */
export function replaceFile(path: string, text: string): void {
  // /dev/stdout, /dev/fd/N: a descriptor this process holds open (a shell's `>`, `>>` or `|`): written
  // through it, at its offset and in its mode, never reopened (which would truncate an `>>` file) nor
  // replaced (which would leave the shell's descriptor on an unlinked file).
  const fd = openDescriptor(path)
  if (fd !== undefined) return writeAll(fd, text)
  const existing = statOf(path)
  if (existing !== undefined && !existing.isFile()) return writeFileSync(path, text)
  const target = linkTarget(path)
  const beside = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`)
  try {
    writeFileSync(beside, text)
    if (existing !== undefined) chmodSync(beside, existing.mode & 0o7777)
    renameSync(beside, target)
  } catch (error) {
    removeIfMade(beside)
    throw namingTarget(error, beside, target)
  }
}

/** The error of a write to the file beside `target`, naming `target`, the file the user asked for. */
function namingTarget(error: unknown, beside: string, target: string): unknown {
  if (error instanceof Error) error.message = error.message.split(beside).join(target)
  return error
}

/** Writes a file, creating its folder first when it is missing, as every command writing an output does. */
export function writeOutputFile(path: string, text: string): void {
  try {
    makeFolder(dirname(path))
    replaceFile(path, text)
  } catch (error) {
    // The system says EEXIST or ENOTDIR, from making the folder or writing the file; the file in the way is what to name.
    throw fileInTheWayError(dirname(path)) ?? error
  }
}

/** Makes a folder that a command was told to write into, naming the file in its way, if one is. */
export function makeOutputFolder(folder: string): void {
  const inTheWay = fileInTheWayError(folder)
  if (inTheWay !== undefined) throw inTheWay
  makeFolder(folder)
}

/** Writes every requested report, creating folders as needed. */
export function writeReports(targets: ReportTargets, report: RunReport): Written {
  const written: Written = { paths: [], errors: [] }
  for (const format of REPORT_FORMATS) {
    const path = targets[format]
    if (path === undefined) continue
    try {
      writeOutputFile(path, RENDERERS[format](report))
      written.paths.push(path)
    } catch (error) {
      written.errors.push(`cannot write the ${format} report to ${path}: ${errorMessage(error)}`)
    }
  }
  return written
}
