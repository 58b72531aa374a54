// A regular file a writer changes while check or audit reads it (a live session's log): its state is
// taken through the descriptor that reads it, when opened and once read, and compared.
import { fstatSync } from 'node:fs'

/**
 * What tells a regular file that changed from one that did not: its length, and when its bytes last
 * changed. Not when its inode last changed, which would also see a rewrite at the same length that puts
 * the old modification time back: a rename moves it too, and a log rotated while read is read whole.
 */
export interface FileState {
  size: bigint
  modifiedNs: bigint
}

/** The state of the file at `fd` if it is a regular file; undefined for a pipe or a device, whose state says nothing. */
export function regularFileState(fd: number): FileState | undefined {
  const stats = fstatSync(fd, { bigint: true })
  return stats.isFile() ? { size: stats.size, modifiedNs: stats.mtimeNs } : undefined
}

/** A regular file that a writer changed while a command read it: its length when opened and once read. */
export interface FileChange {
  bytesOpened: bigint
  bytesRead: bigint
}

/** The change between a regular file's state when opened and once read, through one descriptor. */
export function changeOf(opened: FileState, read: FileState): FileChange | undefined {
  if (opened.size === read.size && opened.modifiedNs === read.modifiedNs) return undefined
  return { bytesOpened: opened.size, bytesRead: read.size }
}

/**
 * What a change while `command` read the file means: what was read may be no state the file was ever
 * in whole (a cut in the middle of the read joins bytes from before it to bytes from after it).
 */
export function fileChangedMessage(change: FileChange, command: 'check' | 'audit'): string {
  const sizes = change.bytesOpened === change.bytesRead
    ? `${change.bytesRead} bytes when opened and once read, its modification time moved meanwhile`
    : `${change.bytesOpened} bytes when opened, ${change.bytesRead} once read`
  return `the file changed while ${command} read it (${sizes}): the findings are of bytes that may be no state the file was ever in, and an unterminated last line may be a record still being written; ${command} it again when no writer has it open`
}
