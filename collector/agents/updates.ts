import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where signed agent builds come from: `serve --agent-updates-dir DIR [--agent-signing-key FILE]`. */
export interface AgentUpdates {
  dir: string;
  privateKey: KeyObject;
}

/** Agent builds the operator places in the updates folder: `sitebeacon-agent-1.4.2-linux-amd64.tar.gz` and the like. */
const ARTIFACT = /^sitebeacon-agent-(\d+)\.(\d+)\.(\d+)(?:[-_.][\w.-]*)?$/;

/** Whether a file name is an agent build's. */
export const isArtifactName = (file: string) => ARTIFACT.test(file);

/** A signed update manifest (`GET /api/v1/server-agents/updates/latest`). */
export interface UpdateManifest {
  version: string;
  file: string;
  url: string;
  size: number;
  sha256: string;
  algorithm: 'ed25519';
  key_id: string;
  /** Base64 Ed25519 signature of `signedPayload(manifest)`. */
  signature: string;
}

/** Exactly what is signed: one field a line, so no two manifests sign the same bytes. */
export const signedPayload = (manifest: Pick<UpdateManifest, 'version' | 'url' | 'size' | 'sha256'>) =>
  Buffer.from(`sitebeacon-agent-update\n${manifest.version}\n${manifest.url}\n${manifest.size}\n${manifest.sha256}\n`);

/** 16 hex characters of SHA-256 of the public key (SPKI DER): names the key a manifest was signed with. */
export const keyIdOf = (publicKey: KeyObject) =>
  createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);

/** The operator's Ed25519 signing key from a PEM file; created (mode 0600) when the file does not exist. */
export const loadSigningKey = (file: string): KeyObject => {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  const key = createPrivateKey(readFileSync(file));
  if (key.asymmetricKeyType != 'ed25519') throw new Error(`${file} is not an Ed25519 private key`);
  return key;
};

/** The newest artifact in `dir` by version, or undefined. */
export const latestArtifact = (dir: string) => {
  const versions = readdirSync(dir)
    .map((file) => ({ file, match: ARTIFACT.exec(file) }))
    .filter((entry): entry is { file: string; match: RegExpExecArray } => !!entry.match && statSync(join(dir, entry.file)).isFile())
    .map(({ file, match }) => ({ file, parts: [1, 2, 3].map((index) => Number(match[index])) }));
  versions.sort((a, b) => b.parts[0]! - a.parts[0]! || b.parts[1]! - a.parts[1]! || b.parts[2]! - a.parts[2]! || a.file.localeCompare(b.file));
  return versions[0] && { file: versions[0].file, version: versions[0].parts.join('.') };
};

/** Reads, hashes and signs the newest artifact. */
export const buildManifest = ({ dir, appUrl, privateKey }: { dir: string; appUrl: string; privateKey: KeyObject }): UpdateManifest | undefined => {
  const latest = latestArtifact(dir);
  if (!latest) return undefined;
  const bytes = readFileSync(join(dir, latest.file));
  const unsigned = {
    version: latest.version,
    file: latest.file,
    url: `${appUrl.replace(/\/+$/, '')}/downloads/agents/${encodeURIComponent(latest.file)}`,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  return {
    ...unsigned,
    algorithm: 'ed25519',
    key_id: keyIdOf(createPublicKey(privateKey)),
    signature: sign(null, signedPayload(unsigned), privateKey).toString('base64'),
  };
};

/**
 * What an agent does before installing: the signature verifies with the published key, and the
 * downloaded bytes are the ones signed.
 *
 * @example
 * verifyManifest(manifest, publicKeyPem, downloadedBytes) // true, or false for any change
 */
export const verifyManifest = (manifest: UpdateManifest, publicKeyPem: string, file: Uint8Array) => {
  const publicKey = createPublicKey(publicKeyPem);
  return (
    manifest.algorithm == 'ed25519' &&
    manifest.key_id == keyIdOf(publicKey) &&
    verify(null, signedPayload(manifest), publicKey, Buffer.from(manifest.signature, 'base64')) &&
    file.length == manifest.size &&
    createHash('sha256').update(file).digest('hex') == manifest.sha256
  );
};
