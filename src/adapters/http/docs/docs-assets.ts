/**
 * The files of our own that the docs pages load, kept as text here so that the TypeScript build
 * carries them into dist/. The pages' CSP forbids inline script and (on the rendered API pages)
 * inline style, so these are served as files from /docs/assets/.
 */

/**
 * Starts Swagger UI on the element that names the description to show (`data-url`). `validatorUrl:
 * null`: Swagger UI would otherwise send every description to validator.swagger.io for its badge,
 * which the CSP would refuse anyway. BaseLayout, without the standalone preset's top bar, whose URL
 * box would fetch any description from anywhere.
 */
export const SWAGGER_INITIALIZER = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

export const DOCS_CSS = `/* Rendered API pages use .sb-page on <body>; the Swagger UI page takes only the top bar, leaving the package's styles alone. */
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--link:#0969da}
body{margin:0}
.sb-top{display:flex;align-items:center;gap:1rem;padding:.6rem 1.25rem;border-bottom:1px solid var(--line);background:var(--soft);font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
.sb-top a,.sb-page .sb-top a{color:var(--fg);text-decoration:none;font-weight:600}
.sb-top .sb-sign-out{margin-left:auto;font-weight:400}
.sb-page{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:#fff}
.sb-page *{box-sizing:border-box}
.sb-page a{color:var(--link)}
.sb-page code,.sb-page pre{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.sb-page pre{background:var(--soft);padding:.75rem;border-radius:6px;overflow:auto}
.sb-layout{display:flex;align-items:stretch;max-width:80rem;margin:0 auto}
.sb-sidebar{flex:0 0 16rem;padding:1.25rem;border-right:1px solid var(--line);font-size:.95rem}
.sb-sidebar>div{position:sticky;top:0;max-height:100vh;overflow:auto}
.sb-sidebar h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:1.25rem 0 .4rem}
.sb-sidebar h2:first-child{margin-top:0}
.sb-sidebar ul{list-style:none;margin:0;padding:0}
.sb-sidebar li{margin:.15rem 0}
.sb-sidebar a[aria-current=page]{font-weight:600;color:var(--fg)}
.sb-main{flex:1;min-width:0;padding:1.25rem 2rem 4rem}
.sb-main h1{margin:.25rem 0 .25rem;font-size:2rem}
.sb-meta{color:var(--muted);margin:0 0 1rem}
.sb-badge{display:inline-block;font-size:.75rem;font-weight:600;padding:0 .45rem;border-radius:1rem;border:1px solid var(--line);color:var(--muted);vertical-align:middle}
.sb-badge.deprecated{border-color:#bf8700;color:#7d4e00}
.sb-badge.endOfLife{border-color:#cf222e;color:#a40e26}
.sb-banner{padding:.75rem 1rem;border-radius:6px;margin:1rem 0;border:1px solid}
.sb-banner.deprecated{background:#fff8c5;border-color:#d4a72c}
.sb-banner.endOfLife{background:#ffebe9;border-color:#ff8182}
.sb-banner strong{display:block}
.sb-group{margin-top:2.5rem}
.sb-group>h2{border-bottom:1px solid var(--line);padding-bottom:.3rem}
.sb-operation{border:1px solid var(--line);border-radius:6px;padding:.25rem 1rem 1rem;margin:1rem 0}
.sb-operation h3{font-size:1.05rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
.sb-operation.deprecated h3 code{text-decoration:line-through}
.sb-method{font:700 .8rem/1.6 ui-monospace,monospace;padding:0 .5rem;border-radius:4px;color:#fff;background:#59636e}
.sb-method.get{background:#0969da}.sb-method.post{background:#1a7f37}.sb-method.put{background:#9a6700}.sb-method.patch{background:#8250df}.sb-method.delete{background:#cf222e}
.sb-operation h4,.sb-model h4{font-size:.9rem;margin:1rem 0 .3rem}
.sb-page table{border-collapse:collapse;width:100%;font-size:.92rem;margin:.3rem 0}
.sb-page th,.sb-page td{border:1px solid var(--line);padding:.35rem .55rem;text-align:left;vertical-align:top}
.sb-page th{background:var(--soft)}
.sb-page td p{margin:0}
.sb-page .align-right{text-align:right}.sb-page .align-center{text-align:center}.sb-page .align-left{text-align:left}
.sb-required{color:#cf222e;font-size:.8rem}
.sb-security,.sb-media{margin:.4rem 0}
.sb-scheme h3{font-size:1rem}
.sb-release{border-top:1px solid var(--line);padding-top:.6rem;margin-top:1rem}
.sb-level{font-size:.9rem;margin:.6rem 0 .2rem}
.sb-level.breaking{color:#a40e26}
.sb-level.warning{color:#7d4e00}
.sb-model{border-top:1px solid var(--line);padding-top:.25rem;margin-top:1rem}
.sb-guide img{max-width:100%}
.sb-empty{color:var(--muted)}
.sb-note{color:var(--muted);font-style:italic}
.sb-as-written p{white-space:pre-wrap;overflow-wrap:anywhere}
@media (max-width:50rem){.sb-layout{display:block}.sb-sidebar{border-right:0;border-bottom:1px solid var(--line)}.sb-sidebar>div{position:static;max-height:none}.sb-main{padding:1rem}}
`;
