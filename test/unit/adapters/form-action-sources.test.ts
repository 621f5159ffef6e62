import { expect } from 'chai';
import { formActionSources } from '../../../src/adapters/http/html.js';

/** What a CSP source list may hold without ending its directive or starting another. */
const HARMLESS = /^[A-Za-z0-9+.:/[\]-]+$/;

describe('formActionSources: what a registered redirect URI adds to the login page CSP', () => {
  const valid: [string, string][] = [
    ['https://app.example.com/oauth/callback?x=1', 'https://app.example.com'],
    ['https://APP.example.com:443/cb', 'https://app.example.com'],
    ['https://app.example.com:8443/cb', 'https://app.example.com:8443'],
    ['https://bücher.example/cb', 'https://xn--bcher-kva.example'],
    ['http://127.0.0.1:8400/callback', 'http://127.0.0.1:8400'],
    ['http://localhost:9/cb', 'http://localhost:9'],
    ['http://[::1]:8400/cb', 'http://[::1]:8400'],
    ['com.example.desktop:/oauth', 'com.example.desktop:'],
  ];
  for (const [uri, source] of valid) {
    it(`${uri}: its origin (or scheme), ${source}`, () => {
      expect(formActionSources(uri)).to.deep.equal([source]);
      const url = new URL(uri);
      expect(source, 'the origin the URL parser serializes').to.equal(url.protocol.startsWith('http') ? url.origin : url.protocol);
    });
  }

  // Each parses as a URL (the domain accepts it as a redirect URI) and its origin, as the URL parser
  // serializes it, would end the form-action directive or add a source or directive of its own.
  const hostile = [
    'https://evil.example;script-src*/cb',
    'https://evil.example%3Breport-to=x/cb',
    "https://evil.example;sandbox'allow-scripts'/cb",
    'https://a,b/cb',
    "https://a'unsafe-inline'/cb",
    'https://a"b/cb',
    'https://a{b}(c)*!$&+=/cb',
    'https://*.example/cb',
  ];
  for (const uri of hostile) {
    it(`${uri}: nothing`, () => {
      expect(new URL(uri).origin, 'the URL parser lets it through').to.not.match(HARMLESS);
      expect(formActionSources(uri)).to.deep.equal([]);
    });
  }

  it('answers nothing for what is not a URL', () => {
    expect(formActionSources('not a url')).to.deep.equal([]);
  });
});
