import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { serviceSignature, standardWebhookSignature, verifyServiceSignature } from '../../../src/adapters/webhooks/signatures.js';

const SECRET = 'whsec-of-the-receiver';
const URL_A = 'https://hooks.example.com/a';
const BODY = '{"type":"api.updated","data":{"name":"Pets – ünïcode"}}';

describe('webhook signatures (X-Service-Signature, webhook-signature)', () => {
  it('X-Service-Signature is the hex HMAC-SHA256 of the target URL followed by the body, under the secret', () => {
    const expected = createHmac('sha256', SECRET).update(URL_A + BODY, 'utf8').digest('hex');
    expect(serviceSignature(SECRET, URL_A, BODY)).to.equal(expected);
    expect(serviceSignature(SECRET, URL_A, Buffer.from(BODY, 'utf8'))).to.equal(expected);
  });

  it('webhook-signature is v1, and the base64 HMAC-SHA256 of id.timestamp.body (Standard Webhooks)', () => {
    const expected = createHmac('sha256', SECRET).update(`msg_1.1700000000.${BODY}`, 'utf8').digest('base64');
    expect(standardWebhookSignature(SECRET, 'msg_1', 1700000000, BODY)).to.equal(`v1,${expected}`);
    expect(standardWebhookSignature(SECRET, 'msg_1', 1700000000, Buffer.from(BODY, 'utf8'))).to.equal(`v1,${expected}`);
  });

  it('keys both signatures with the UTF-8 bytes of the secret, whatever characters it has', () => {
    const secret = 'clé-secrète-🔑';
    const key = Buffer.from(secret, 'utf8');
    expect(serviceSignature(secret, URL_A, BODY)).to.equal(createHmac('sha256', key).update(Buffer.from(URL_A + BODY, 'utf8')).digest('hex'));
    expect(standardWebhookSignature(secret, 'msg_2', 1700000001, BODY)).to.equal(`v1,${createHmac('sha256', key).update(Buffer.from(`msg_2.1700000001.${BODY}`, 'utf8')).digest('base64')}`);
  });

  describe('verifyServiceSignature, as a receiver checks a delivery', () => {
    const good = serviceSignature(SECRET, URL_A, BODY);

    it('verifies the signature of the same secret, URL and body, in either case and with spaces around it', () => {
      expect(verifyServiceSignature(SECRET, URL_A, BODY, good)).to.equal(true);
      expect(verifyServiceSignature(SECRET, URL_A, Buffer.from(BODY), good.toUpperCase())).to.equal(true);
      expect(verifyServiceSignature(SECRET, URL_A, BODY, ` ${good}\t`)).to.equal(true);
    });

    it('refuses another secret, another target URL (a replay to another endpoint) or another body', () => {
      expect(verifyServiceSignature('other', URL_A, BODY, good)).to.equal(false);
      expect(verifyServiceSignature(SECRET, 'https://hooks.example.com/b', BODY, good)).to.equal(false);
      expect(verifyServiceSignature(SECRET, URL_A, `${BODY} `, good)).to.equal(false);
    });

    it('refuses 64 hex digits followed by anything, and anything followed by them', () => {
      expect(verifyServiceSignature(SECRET, URL_A, BODY, `${good}00`)).to.equal(false);
      expect(verifyServiceSignature(SECRET, URL_A, BODY, `${good}zz`)).to.equal(false);
      expect(verifyServiceSignature(SECRET, URL_A, BODY, `sha256=${good}`)).to.equal(false);
    });

    it('refuses a missing, empty, short or non-hex header without throwing', () => {
      for (const header of [undefined, null, '', good.slice(0, 63), good.slice(0, 62), `${good.slice(0, 63)}g`]) {
        expect(verifyServiceSignature(SECRET, URL_A, BODY, header), String(header)).to.equal(false);
      }
    });
  });
});
