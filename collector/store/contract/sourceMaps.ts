/** A stored source map as listed: what it is for, not its text (docs/source-maps.md, "Uploading maps"). */
export interface SourceMapInfo {
  release: string;
  /** The minified script's URL, or `~/` + its path for any origin of the site. */
  url: string;
  /** The map's `debugId`, lower-cased, or null when it names none. */
  debug_id: string | null;
  /** The map text's length, in UTF-16 code units. */
  size: number;
  uploaded_at: string;
}

/** A map as uploaded: its text is kept as is (compressed by the adapter). */
export interface SourceMapUpload {
  release: string;
  url: string;
  debug_id: string | null;
  text: string;
}

/**
 * The source maps of a site's releases (docs/source-maps.md). A map is one per site, release and
 * URL: `put` replaces the one stored for the same three. Texts are stored compressed, compressed
 * and decompressed off the event loop (zlib's thread pool), so that a large map blocks nothing.
 * `put` under a key no site has rejects with UnknownSiteError (contract.ts).
 */
export interface SourceMapStore {
  put(siteKey: string, map: SourceMapUpload, at?: number): Promise<void>;
  /** The map text stored for the release and URL, exactly as that URL was uploaded. */
  text(siteKey: string, release: string, url: string): Promise<string | undefined>;
  /** The text of the site's map with this debug ID (lower-case), the latest uploaded when several have it. */
  textByDebugId(siteKey: string, debugId: string): Promise<string | undefined>;
  /**
   * `text` and `textByDebugId` as stored, compressed (store/sourceMapText.ts, unpackMapTextSync), for
   * the source map thread to decompress: the collector's thread then never holds the text
   * (docs/source-maps.md, "The map thread").
   */
  packed(siteKey: string, release: string, url: string): Promise<Uint8Array | undefined>;
  packedByDebugId(siteKey: string, debugId: string): Promise<Uint8Array | undefined>;
  /**
   * The debug IDs of the site's maps stored for `url` (as uploaded), whatever their release: at most
   * two, a map without one as null. One ID is a script URL only ever uploaded from one build (a
   * content-hashed file name): its map is found by that ID for a report that names no release, or
   * whose release has no map for it (docs/source-maps.md, "Debug IDs").
   */
  debugIds(siteKey: string, url: string): Promise<Array<string | null>>;
  /** The release's maps, by URL. */
  list(siteKey: string, release: string): Promise<SourceMapInfo[]>;
  /** Removes the release's maps, or its one map for `url`; resolves to how many were removed. */
  delete(siteKey: string, release: string, url?: string): Promise<number>;
}
