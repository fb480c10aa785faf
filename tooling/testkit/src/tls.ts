// A throwaway certificate authority and the leaf certificates it signs, made with `openssl` in a temp
// folder at test time: how the HTTPS browser tests and the deploy doctor's tests serve real TLS for
// names such as portal.gatehouse.test without a certificate checked into the repository.
// Plain Node, no dependencies.

import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDebian, isRoot, onPath } from './systemTools';

/** Certificates are valid for this many days: long enough for a test run, short enough to stay throwaway. */
const VALID_DAYS = 2;

export interface LeafCertificate {
  /** PEM certificate (leaf only); nginx's `ssl_certificate` */
  certFile: string;
  /** PEM private key, unencrypted; nginx's `ssl_certificate_key` */
  keyFile: string;
  /** the DNS names it is valid for (subjectAltName) */
  hostnames: string[];
  /** base64 SHA-256 of its public key (SPKI), for Chromium's `--ignore-certificate-errors-spki-list` */
  spkiSha256: string;
}

export interface TestCa {
  /** the folder holding every file; remove() deletes it */
  dir: string;
  /** the CA's PEM certificate: trust it (`NODE_EXTRA_CA_CERTS`, `curl --cacert`) */
  certFile: string;
  /** signs a leaf for these names */
  issue: (hostnames: readonly string[], name?: string) => LeafCertificate;
  /** deletes the folder and every key in it */
  remove: () => void;
}

/** The command that installs openssl on this machine. */
function opensslInstallCommand() {
  return isDebian() ? `${isRoot() ? '' : 'sudo '}apt-get install -y openssl` : "brew install openssl   (or your system's openssl package)";
}

/** openssl: `OPENSSL_BIN` if set, else `openssl` on PATH; throws, saying how to install it, when there is none. */
function requireOpenssl() {
  const fromEnv = process.env.OPENSSL_BIN;
  if (fromEnv) return fromEnv;
  const found = onPath('openssl');
  if (!found)
    throw new Error(
      `openssl not found on PATH (OPENSSL_BIN is not set). Install it with \`${opensslInstallCommand()}\`, or set OPENSSL_BIN.`,
    );
  return found;
}

/**
 * Runs openssl; throws with its own words when it fails.
 */
function runOpenssl(openssl: string, args: readonly string[]) {
  const run = spawnSync(openssl, args, { encoding: 'utf8' });
  if (run.error)
    throw new Error(`Cannot run ${openssl}: ${run.error.message}. Install it with \`${opensslInstallCommand()}\`, or set OPENSSL_BIN.`);
  if (run.status !== 0) throw new Error(`\`openssl ${args.join(' ')}\` failed (exit code ${run.status}):\n${run.stderr}`);
}

/** A DNS name or wildcard a certificate can carry; anything else is refused before openssl sees it. */
const HOSTNAME = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** base64 SHA-256 of a PEM certificate's public key (SPKI, DER). */
function spkiSha256(pem: string) {
  const der = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

/**
 * Makes a new certificate authority (EC P-256, self-signed, valid two days) in a new temp folder, or in `dir`.
 * Its `issue()` signs leaf certificates for server names; nothing is trusted system-wide.
 *
 * @param options `name` goes into the CA's common name
 */
function createTestCa({
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-tls-')),
  name = 'Gatehouse throwaway test CA',
}: { dir?: string; name?: string } = {}): TestCa {
  const openssl = requireOpenssl();
  const certFile = join(dir, 'ca.crt');
  const keyFile = join(dir, 'ca.key');
  // A random serial part in the name: two runs never make two CAs a browser could confuse.
  const subject = `/CN=${name} ${randomBytes(4).toString('hex')}`;
  const caExtensions = join(dir, 'ca.ext');
  writeFileSync(
    caExtensions,
    'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n',
  );
  runOpenssl(openssl, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', keyFile]);
  runOpenssl(openssl, ['req', '-new', '-key', keyFile, '-subj', subject, '-out', join(dir, 'ca.csr')]);
  runOpenssl(openssl, [
    'x509', '-req', '-in', join(dir, 'ca.csr'), '-signkey', keyFile, '-days', String(VALID_DAYS),
    '-sha256', '-extfile', caExtensions, '-set_serial', `0x${randomBytes(8).toString('hex')}`, '-out', certFile,
  ]); // prettier-ignore

  const issue: TestCa['issue'] = (hostnames, leafName = 'server') => {
    if (hostnames.length === 0) throw new Error('A certificate needs at least one host name: pass e.g. ["portal.gatehouse.test"].');
    const bad = hostnames.filter((host) => !HOSTNAME.test(host));
    if (bad.length > 0)
      throw new Error(`Not a DNS name a certificate can carry: ${bad.join(', ')}. Pass bare host names, without scheme or port.`);
    if (!/^[a-z0-9-]+$/i.test(leafName))
      throw new Error(`Leaf name "${leafName}" must be letters, digits and dashes (it names files in ${dir}).`);
    const leafCert = join(dir, `${leafName}.crt`);
    const leafKey = join(dir, `${leafName}.key`);
    const csr = join(dir, `${leafName}.csr`);
    const extensions = join(dir, `${leafName}.ext`);
    writeFileSync(
      extensions,
      [
        'basicConstraints=critical,CA:FALSE',
        'keyUsage=critical,digitalSignature',
        'extendedKeyUsage=serverAuth',
        `subjectAltName=${hostnames.map((host) => `DNS:${host}`).join(',')}`,
        '',
      ].join('\n'),
    );
    runOpenssl(openssl, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', leafKey]);
    runOpenssl(openssl, ['req', '-new', '-key', leafKey, '-subj', `/CN=${hostnames[0]}`, '-out', csr]);
    runOpenssl(openssl, [
      'x509', '-req', '-in', csr, '-CA', certFile, '-CAkey', keyFile, '-days', String(VALID_DAYS), '-sha256',
      '-extfile', extensions, '-set_serial', `0x${randomBytes(8).toString('hex')}`, '-out', leafCert,
    ]); // prettier-ignore
    return { certFile: leafCert, keyFile: leafKey, hostnames: [...hostnames], spkiSha256: spkiSha256(readFileSync(leafCert, 'utf8')) };
  };

  return { dir, certFile, issue, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export { createTestCa, requireOpenssl, opensslInstallCommand, spkiSha256 };
