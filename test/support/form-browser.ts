import { expect } from 'chai';

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

/** The hidden fields of the first form of an HTML page. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = unescapeHtml(match[2]!);
  return fields;
}

/**
 * A person's browser, as far as the login and consent pages need one: it keeps cookies, does not
 * follow redirects (so a test sees where it would go) and submits forms. The headless-Chromium test
 * drives the same pages in a real browser.
 */
export class FormBrowser {
  readonly cookies = new Map<string, string>();
  lastPage = '';

  /** `check` sees every answer (the test server's checks it against its description). */
  constructor(
    readonly base: string,
    private readonly check: (method: string, path: string, response: Response) => Promise<unknown> = async () => undefined,
  ) {}

  async get(path: string): Promise<Response> {
    const response = await fetch(new URL(path, this.base), { redirect: 'manual', headers: this.cookieHeader() });
    await this.check('GET', path, response);
    return this.keep(response);
  }

  async post(path: string, fields: Record<string, string>): Promise<Response> {
    const response = await fetch(new URL(path, this.base), { method: 'POST', redirect: 'manual', headers: this.cookieHeader(), body: new URLSearchParams(fields) });
    await this.check('POST', path, response);
    return this.keep(response);
  }

  /**
   * Opens an authorization URL and goes through the pages it shows (sign in, consent) until the
   * server redirects to the client; returns that redirect.
   */
  async authorize(url: string, user: { readonly email: string; readonly password: string }, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let response = await this.get(url);
    for (let step = 0; step < 3; step++) {
      if (response.status === 303 || response.status === 302) return new URL(response.headers.get('location')!);
      expect(response.status, this.lastPage).to.equal(200);
      const fields = hiddenFields(this.lastPage);
      if (fields['step'] === 'login') response = await this.post('/o/oauth2/auth', { ...fields, email: user.email, password: user.password });
      else if (fields['step'] === 'consent') response = await this.post('/o/oauth2/auth', { ...fields, decision });
      else throw new Error(`unexpected page: ${this.lastPage}`);
    }
    throw new Error(`no redirect after three pages: ${this.lastPage}`);
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  private async keep(response: Response): Promise<Response> {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      // As browsers do, a cookie set to expire now is gone.
      if (/;\s*Max-Age=0(;|$)/i.test(line)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
    this.lastPage = response.headers.get('content-type')?.startsWith('text/html') ? await response.clone().text() : '';
    return response;
  }
}
