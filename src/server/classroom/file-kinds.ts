import { inflateRawSync } from 'node:zlib';
import { CLASSROOM_FILE_KINDS, type ClassroomFileKind } from '../../shared/classroom-schemas.js';

/**
 * What a file is, from its bytes (never its name or declared type): PDF and images by their
 * signature, slides by the entries of their ZIP container (a .pptx has ppt/presentation.xml,
 * an .odp its `mimetype` entry, a Keynote file Index/Document.iwa or index.apxl). Null:
 * none of the kinds a classroom takes.
 */
export function detectKind(data: Buffer): ClassroomFileKind | null {
  if (data.length < 8) return null;
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  const head = data.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (data.readUInt32LE(0) === 0x04034b50) {
    const entries = zipEntries(data);
    if (!entries) return null;
    if (entries.has('ppt/presentation.xml') && entries.has('[Content_Types].xml')) return 'pptx';
    if (entryText(data, entries.get('mimetype')) === CLASSROOM_FILE_KINDS.odp.contentType) return 'odp';
    if (entries.has('Index/Document.iwa') || entries.has('index.apxl')) return 'key';
  }
  return null;
}

/** The kind a file name claims (by its extension); null for none we take. */
export function claimedKind(fileName: string): ClassroomFileKind | null {
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(fileName)?.[1]?.toLowerCase();
  if (!ext) return null;
  for (const [kind, k] of Object.entries(CLASSROOM_FILE_KINDS))
    if ((k.extensions as readonly string[]).includes(ext)) return kind as ClassroomFileKind;
  return null;
}

interface ZipEntry {
  localOffset: number;
  method: number;
  compressedSize: number;
}

/** The entries of a ZIP's central directory by name; null when it is not a readable ZIP. */
function zipEntries(data: Buffer): Map<string, ZipEntry> | null {
  // The end-of-central-directory record: in the last 64 KiB + 22 bytes.
  const from = Math.max(0, data.length - 65_557);
  let eocd = -1;
  for (let i = data.length - 22; i >= from; i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = data.readUInt16LE(eocd + 10);
  let at = data.readUInt32LE(eocd + 16);
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count && n < 10_000; n++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) return null;
    const method = data.readUInt16LE(at + 10);
    const compressedSize = data.readUInt32LE(at + 20);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const localOffset = data.readUInt32LE(at + 42);
    const name = data.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    entries.set(name, { localOffset, method, compressedSize });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** A small entry's text (stored or deflated), or null. */
function entryText(data: Buffer, entry: ZipEntry | undefined): string | null {
  if (!entry || entry.compressedSize > 1024) return null;
  const at = entry.localOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50) return null;
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const raw = data.subarray(start, start + entry.compressedSize);
  try {
    if (entry.method === 0) return raw.toString('latin1');
    if (entry.method === 8) return inflateRawSync(raw).toString('latin1');
  } catch {
    return null;
  }
  return null;
}
