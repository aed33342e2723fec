import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CA_CONFIG = `[ca]
default_ca = test_ca
[test_ca]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
unique_subject = no
copy_extensions = copy
[any]
commonName = supplied
organizationName = optional
`;

/** A key and certificate, as PEM file paths. */
export interface KeyPair {
  key: string;
  cert: string;
}

const run = (cwd: string, args: string[]) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A self-signed CA in its own folder, able to sign leaves with any validity window (`openssl ca`). */
const makeCa = (dir: string, name: string, subject: string) => {
  const home = join(dir, name);
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'ca.cnf'), CA_CONFIG);
  writeFileSync(join(home, 'index.txt'), '');
  writeFileSync(join(home, 'serial'), '01\n');
  run(home, ['req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', subject,
    '-addext', 'basicConstraints=critical,CA:true', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  let count = 0;
  const issue = (subjectName: string, altNames: string, startdate: string, enddate: string): KeyPair => {
    const base = `leaf${++count}`;
    run(home, ['req', '-new', ...newKey, '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${subjectName}`, '-addext', `subjectAltName=${altNames}`]);
    run(home, ['ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.pem', '-keyfile', 'ca.key', '-in', `${base}.csr`, '-out', `${base}.pem`,
      '-startdate', startdate, '-enddate', enddate]);
    return { key: join(home, `${base}.key`), cert: join(home, `${base}.pem`) };
  };
  return { cert: join(home, 'ca.pem'), issue };
};

const stamp = (date: Date) => `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/**
 * Every certificate the check's TLS tests need, made with openssl in `dir`: a test root (which
 * tests trust with `--ca`) and leaves for `collector.test` and 127.0.0.1 that are valid, expired,
 * not yet valid, or for another name; a self-signed one; and one issued by an untrusted CA named
 * like Zscaler's inspection root.
 *
 * @example
 * const certificates = makeTestCertificates(mkdtempSync(join(tmpdir(), 'certs-')));
 * https.createServer({ key: readFileSync(certificates.valid.key), cert: readFileSync(certificates.valid.cert) });
 */
export const makeTestCertificates = (dir: string) => {
  const day = 24 * 3600 * 1000;
  const now = Date.now();
  const names = 'DNS:collector.test,IP:127.0.0.1';
  const root = makeCa(dir, 'root', '/CN=Sitebeacon Test Root/O=Sitebeacon Tests');
  const valid = root.issue('collector.test', names, stamp(new Date(now - day)), stamp(new Date(now + day)));
  const expired = root.issue('collector.test', names, '20200101000000Z', '20200201000000Z');
  const notYetValid = root.issue('collector.test', names, '20990101000000Z', '20990201000000Z');
  const wrongName = root.issue('other.example', 'DNS:other.example', stamp(new Date(now - day)), stamp(new Date(now + day)));
  const inspection = makeCa(dir, 'zscaler', '/CN=Zscaler Root CA/O=Zscaler Inc./OU=Zscaler Inc.');
  const intercepted = inspection.issue('collector.test', names, stamp(new Date(now - day)), stamp(new Date(now + day)));
  const selfSignedHome = join(dir, 'self');
  mkdirSync(selfSignedHome);
  run(selfSignedHome, ['req', '-x509', ...newKey, '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '1', '-subj', '/CN=collector.test', '-addext', `subjectAltName=${names}`]);
  const selfSigned = { key: join(selfSignedHome, 'key.pem'), cert: join(selfSignedHome, 'cert.pem') };
  return { rootCa: root.cert, valid, expired, notYetValid, wrongName, intercepted, selfSigned };
};
