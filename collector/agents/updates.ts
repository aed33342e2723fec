import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Where signed agent builds come from: `serve --agent-updates-dir DIR [--agent-signing-key FILE]`. */
export interface AgentUpdates {
  dir: string;
  privateKey: KeyObject;
  /** A download whose reader takes nothing for this long is ended (default 30 s): idle readers hold no file for ever. */
  idleTimeoutMs?: number | undefined;
}

/** A signed update manifest (`GET /api/v1/server-agents/updates/latest`). */
export interface UpdateManifest {
  version: string;
  /** The build architecture (`amd64`, `arm64`, `armv7`, `386`): the one the agent asked for. */
  arch: string;
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

/**
 * Signs the manifest of one build (its SHA-256 from the build index, hashed once per change).
 *
 * @example
 * signManifest({ build, sha256, appUrl: 'https://app.example', privateKey }).url // 'https://app.example/downloads/agents/sitebeacon-agent-…'
 */
export const signManifest = ({
  build,
  sha256,
  appUrl,
  privateKey,
}: {
  build: { file: string; version: readonly number[]; arch: string; size: number };
  sha256: string;
  appUrl: string;
  privateKey: KeyObject;
}): UpdateManifest => {
  const unsigned = {
    version: build.version.join('.'),
    arch: build.arch,
    file: build.file,
    url: `${appUrl.replace(/\/+$/, '')}/downloads/agents/${encodeURIComponent(build.file)}`,
    size: build.size,
    sha256,
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
