import { expect } from 'chai';
import { accessOfMethod, AREAS, isScope, requiredScope, SCOPES, scopesPermit, type Access, type Scope } from '../../../src/domain/token/scope.js';

describe('scopes', () => {
  it('has the scope table of the contract: every area and its .readonly variant', () => {
    expect([...SCOPES].sort()).to.deep.equal(
      [
        'api', 'api.readonly', 'api_page', 'api_page.readonly', 'api_release', 'api_release.readonly',
        'api_share', 'api_share.readonly', 'profile', 'profile.readonly', 'webhook', 'webhook.readonly',
      ].sort(),
    );
  });

  it('knows its scopes and nothing else', () => {
    expect(isScope('api')).to.equal(true);
    expect(isScope('api.readonly')).to.equal(true);
    expect(isScope('admin')).to.equal(false);
    expect(isScope('api.write')).to.equal(false);
    expect(isScope('API')).to.equal(false);
    expect([3, null, undefined, ['api'], { api: true }].map(isScope), 'what is not a string').to.deep.equal([false, false, false, false, false]);
  });

  it('treats GET and HEAD as reads and every other method as a write', () => {
    expect(['GET', 'HEAD', 'get', 'head'].map(accessOfMethod)).to.deep.equal(['read', 'read', 'read', 'read']);
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map(accessOfMethod)).to.deep.equal(['write', 'write', 'write', 'write', 'write']);
  });

  describe('the rule, for every scope x area x access', () => {
    for (const scope of SCOPES) {
      for (const area of AREAS) {
        for (const access of ['read', 'write'] as Access[]) {
          const [scopeArea, readonly] = scope.split('.');
          const expected = scopeArea === area && (readonly === undefined || access === 'read');
          it(`${scope} ${expected ? 'permits' : 'refuses'} ${access} of ${area}`, () => {
            expect(scopesPermit([scope], area, access)).to.equal(expected);
          });
        }
      }
    }
  });

  it('X implies X.readonly: a token with both or either reads', () => {
    expect(scopesPermit(['api'] as Scope[], 'api', 'read')).to.equal(true);
    expect(scopesPermit(['webhook.readonly', 'api.readonly'] as Scope[], 'api', 'write')).to.equal(false);
    expect(scopesPermit(['webhook', 'api.readonly'] as Scope[], 'api', 'read')).to.equal(true);
  });

  it('names the narrowest scope an operation needs', () => {
    expect(requiredScope('api', 'read')).to.equal('api.readonly');
    expect(requiredScope('api_release', 'write')).to.equal('api_release');
  });
});
