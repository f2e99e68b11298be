import assert from 'node:assert/strict';
import { createSecureContext } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { test } from 'node:test';
import { createSelfSignedTls } from '../../sim/tls.js';

test('every self-signed certificate loads, whatever its random serial number', () => {
  // A serial starting with a zero byte once made 1 certificate in 512 invalid DER, which
  // OpenSSL rejects ("illegal padding"); thousands of fresh ones make that visible.
  for (let index = 0; index < 3000; index++) {
    const { key, cert } = createSelfSignedTls();
    assert.doesNotThrow(() => createSecureContext({ key, cert }), `certificate ${index}:\n${cert}`);
  }
  const { cert } = createSelfSignedTls();
  const parsed = new X509Certificate(cert);
  assert.ok(parsed.checkIP('127.0.0.1'));
  assert.ok(parsed.checkHost('localhost'));
  assert.ok(parsed.ca);
});
