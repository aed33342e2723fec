import { expect, test } from 'vitest';
import { describeCertificateFailure } from './describeCertificateFailure';
import { interceptionProduct } from './interceptionProduct';

const now = new Date('2026-06-01T12:00:00Z');
const leaf = {
  subject: { CN: 'collector.example' },
  issuer: { CN: 'R11', O: "Let's Encrypt" },
  valid_from: 'Jan  1 00:00:00 2026 GMT',
  valid_to: 'Apr  1 00:00:00 2026 GMT',
  subjectaltname: 'DNS:collector.example',
};

test('expired and not yet valid point to the clock, with the dates', () => {
  const expired = describeCertificateFailure('CERT_HAS_EXPIRED', [leaf], 'collector.example', now);
  expect(expired.pointsTo).toBe('clock');
  expect(expired.detail).toContain('expired on 2026-04-01, and this machine\'s clock says 2026-06-01 12:00:00 UTC');
  const early = describeCertificateFailure('CERT_NOT_YET_VALID', [{ ...leaf, valid_from: 'Jan  1 00:00:00 2027 GMT' }], 'collector.example', now);
  expect(early).toMatchObject({ pointsTo: 'clock' });
  expect(early.detail).toContain('valid only from 2027-01-01');
});

test('an unknown issuer points to the CA certificates; one that looks like an inspection proxy to TLS interception', () => {
  expect(describeCertificateFailure('UNABLE_TO_GET_ISSUER_CERT_LOCALLY', [leaf], 'collector.example', now)).toMatchObject({ pointsTo: 'CA certificates' });
  const fortinet = [{ ...leaf, issuer: { CN: 'FG100FTK19000000', O: 'Fortinet', OU: 'Certificate Authority' } }];
  const intercepted = describeCertificateFailure('SELF_SIGNED_CERT_IN_CHAIN', fortinet, 'collector.example', now);
  expect(intercepted.pointsTo).toBe('TLS interception');
  expect(intercepted.detail).toContain('which looks like Fortinet FortiGate, an inspection proxy');
  expect(describeCertificateFailure('ERR_TLS_CERT_ALTNAME_INVALID', fortinet, 'collector.example', now).pointsTo).toBe('TLS interception');
});

test('a certificate for another name is a name mismatch listing the names it has', () => {
  const reading = describeCertificateFailure('ERR_TLS_CERT_ALTNAME_INVALID', [{ ...leaf, subjectaltname: 'DNS:*.cdn.example' }], 'collector.example', now);
  expect(reading.pointsTo).toBe('name mismatch');
  expect(reading.detail).toContain('is for DNS:*.cdn.example, not for collector.example');
});

test('with no certificate read, the failure is still named by its code', () => {
  expect(describeCertificateFailure('DEPTH_ZERO_SELF_SIGNED_CERT', [], 'collector.example', now).detail).toContain('self-signed certificate (an unnamed issuer)');
});

test('inspection products are matched on whole words of issuer names only', () => {
  expect(interceptionProduct([{ issuer: { CN: 'ESET SSL Filter CA' } }])).toBe('ESET');
  expect(interceptionProduct([{ issuer: { O: 'Preset Labs' } }])).toBeUndefined();
  expect(interceptionProduct([{ issuer: { CN: 'Cisco Umbrella Secondary SubCA ash-SG' } }])).toBe('Cisco Umbrella');
  expect(interceptionProduct([{ issuer: { O: ['Avast', 'Web/Mail Shield'] } }])).toBe('Avast');
  expect(interceptionProduct([leaf])).toBeUndefined();
});
