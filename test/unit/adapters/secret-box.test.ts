import { expect } from 'chai';
import { generateSecretsKey, parseSecretsKey, SecretBox, SecretsKeyError } from '../../../src/adapters/persistence/secret-box.js';

describe('SecretBox: envelope encryption of secrets at rest', () => {
  const k1 = generateSecretsKey();
  const k2 = generateSecretsKey();

  it('seals to text that holds nothing of the value and opens back to it; a new value is sealed afresh, an unchanged one is left as stored', () => {
    const box = new SecretBox(k1.key);
    const sealed = box.seal('whsec-a-secret-value', 'webhooks.secret:w1');
    expect(sealed).to.match(new RegExp(`^sb1\\.${k1.key.id}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(sealed).to.not.include('secret-value');
    expect(box.open(sealed, 'webhooks.secret:w1')).to.equal('whsec-a-secret-value');
    expect(box.seal('whsec-a-secret-value', 'webhooks.secret:w1'), 'unchanged: no new envelope').to.equal(sealed);
    const other = new SecretBox(k1.key);
    expect(other.seal('whsec-a-secret-value', 'webhooks.secret:w1'), 'a fresh data key and iv for each new sealing').to.not.equal(sealed);
    expect(other.open(sealed, 'webhooks.secret:w1'), 'either opens').to.equal('whsec-a-secret-value');
    expect(box.seal('whsec-another-value', 'webhooks.secret:w1')).to.not.equal(sealed);
    expect(box.open(box.seal('', 'c'), 'c')).to.equal('');
  });

  it('refuses a value sealed in another context, an altered one, and one sealed with a key it lacks', () => {
    const box = new SecretBox(k1.key);
    const sealed = box.seal('s3cret', 'webhooks.secret:w1');
    expect(() => box.open(sealed, 'webhooks.secret:w2')).to.throw(SecretsKeyError, 'belongs to another row');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[5]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([...parts.slice(0, 5), flipped.toString('base64url')].join('.'), 'webhooks.secret:w1')).to.throw();
    expect(() => new SecretBox(k2.key).open(sealed, 'webhooks.secret:w1')).to.throw(SecretsKeyError, `sealed with key ${k1.key.id}`);
    expect(box.open('plain text', 'c'), 'written in clear by an older instance during an upgrade: as it is').to.equal('plain text');
    expect(() => box.open('sb1.x.y', 'c')).to.throw(SecretsKeyError, 'not sealed as Specbase seals them');
  });

  it('re-wraps under the current key, leaving the ciphertext, and opens with a previous key', () => {
    const sealed = new SecretBox(k1.key).seal('rotate me', 'ctx');
    const rotating = new SecretBox(k2.key, [k1.key]);
    expect(rotating.open(sealed, 'ctx'), 'a previous key still opens').to.equal('rotate me');
    const rewrapped = rotating.rewrap(sealed, 'ctx');
    expect(SecretBox.keyIdOf(rewrapped)).to.equal(k2.key.id);
    expect(rewrapped.split('.').slice(4), 'same iv and ciphertext').to.deep.equal(sealed.split('.').slice(4));
    expect(new SecretBox(k2.key).open(rewrapped, 'ctx')).to.equal('rotate me');
    expect(rotating.rewrap(rewrapped, 'ctx'), 'under the current key already').to.equal(rewrapped);
  });

  it('reads a key as 64 hex digits or base64 of 32 bytes, and says what it wants otherwise', () => {
    expect(parseSecretsKey(k1.text, 'SECRETS_KEY').id).to.equal(k1.key.id);
    expect(parseSecretsKey(k1.key.key.toString('hex'), 'SECRETS_KEY').id).to.equal(k1.key.id);
    expect(parseSecretsKey(`${k1.text}\n`, 'SECRETS_KEY').id, 'a key file ends in a newline').to.equal(k1.key.id);
    for (const bad of ['', 'short', 'a'.repeat(63), Buffer.alloc(16).toString('base64')]) expect(() => parseSecretsKey(bad, 'SECRETS_KEY')).to.throw(SecretsKeyError, 'SECRETS_KEY must be 32 bytes');
  });
});
