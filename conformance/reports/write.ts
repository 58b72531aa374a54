// `--report json=PATH,junit=PATH,md=PATH`: which reports to write, and writing them.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
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

/** Writes a file, creating its folder first when it is missing, as every command writing an output does. */
export function writeOutputFile(path: string, text: string): void {
  try {
    makeFolder(dirname(path))
    writeFileSync(path, text)
  } catch (error) {
    // The system says EEXIST or ENOTDIR, from making the folder or writing the file; the file in the way is what to name.
    const blocking = fileInTheWay(dirname(path))
    throw blocking === undefined ? error : new Error(`${blocking} is a file, not a folder`)
  }
}

/** Makes a folder that a command was told to write into, naming the file in its way, if one is. */
export function makeOutputFolder(folder: string): void {
  const blocking = fileInTheWay(folder)
  if (blocking !== undefined) throw new Error(`${blocking} is a file, not a folder`)
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
