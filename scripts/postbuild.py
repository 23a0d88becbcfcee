#!/usr/bin/env python3
"""After `trunk build`: (1) adds a Content-Security-Policy to dist/index.html that allows no remote origin
(Trunk's inline loader script is allowed by its SHA-256 hash; style attributes are allowed because plotters
measures text with a styled <span>; workers only from Blob URLs: the page's simulation worker, src/ui/worker.rs); (2) writes dist/tps-planner.html, one
self-contained file (CSS, JS glue and the wasm as base64 inlined) that works opened from disk (file://),
where the multi-file build cannot load its module script and wasm. Usage: postbuild.py DIST"""
import base64, glob, hashlib, json, os, re, sys

dist = sys.argv[1] if len(sys.argv) > 1 else 'dist'

def sha(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

def one(pattern):
    found = [p for p in glob.glob(os.path.join(dist, pattern)) if not p.endswith('.map')]
    if len(found) != 1:
        sys.exit(f'postbuild: expected one {pattern} in {dist}, found {found}')
    return found[0]

index_path = os.path.join(dist, 'index.html')
html = open(index_path, encoding='utf-8').read()
html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>\s*', '', html)
# Chromium ignores `integrity` on a preload `as="fetch"` (the wasm) and warns on every load (a trial read the warning
# as a fault): the preload is a hint, the glue fetches the wasm itself, so the attribute goes.
html = re.sub(r'(<link rel="preload"[^>]*?) integrity="[^"]*"', r'\1', html)
inline = re.findall(r'<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>', html, flags=re.S)
hashes = ' '.join(sha(s) for s in inline)
csp = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval' " + hashes +
       "; worker-src blob:; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'")
html = html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="' + csp + '">', 1)
open(index_path, 'w', encoding='utf-8').write(html)

# Single file.
js = open(one('tps-planner-*.js'), encoding='utf-8').read()
wasm = open(one('tps-planner-*_bg.wasm'), 'rb').read()
css = open(one('style-*.css'), encoding='utf-8').read()
icon = open(one('icon-*.svg'), 'rb').read()
js = re.sub(r'//# sourceMappingURL=.*', '', js)
# The page's Web Worker (src/ui/worker.rs) runs the glue. From file:// Chromium starts no module worker and loads
# no script from a Blob URL inside a worker (import or importScripts), so the single file's worker is a classic
# one whose own Blob holds a classic-script copy of the glue: the same text without its `export`s and with no
# import.meta (it only names the default .wasm address; the worker is given the page's compiled module).
classic = re.sub(r'^export \{[^}]*\};?\s*$', '', js, flags=re.M)
classic = re.sub(r'^export (class|function|async function|const|let) ', r'\1 ', classic, flags=re.M)
classic = '"use strict";\n' + classic.replace('import.meta.url', 'location.href')
if re.search(r'^\s*(export|import)\b|import\.meta|\bimport\(', classic, flags=re.M):
    sys.exit('postbuild: the glue has module syntax the classic copy for the worker does not strip')
loader = (js + '\nwindow.__tpsGlueClassic = ' + json.dumps(classic).replace('</', '<\\/') +
          ';\nconst __tps_wasm = Uint8Array.from(atob("' + base64.b64encode(wasm).decode() +
          '"), c => c.charCodeAt(0));\nawait __wbg_init({ module_or_path: __tps_wasm });\n')
if '__wbg_init' not in js:
    sys.exit('postbuild: the wasm-bindgen glue has no __wbg_init; its --target changed')
head = re.search(r'<head>(.*?)</head>', html, flags=re.S).group(1)
title = re.search(r'<title>.*?</title>', head).group(0)
desc = re.search(r'<meta name="description"[^>]*>', head)
single_csp = ("default-src 'none'; script-src " + sha(loader) + " 'wasm-unsafe-eval'; worker-src blob:; style-src " + sha(css) +
              "; style-src-attr 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'")
single = f'''<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{single_csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
{desc.group(0) if desc else ''}
{title}
<link rel="icon" href="data:image/svg+xml;base64,{base64.b64encode(icon).decode()}">
<style>{css}</style>
</head>
<body>
<noscript>TPS Planner needs JavaScript and WebAssembly enabled.</noscript>
<script type="module">{loader}</script>
</body>
</html>
'''
out = os.path.join(dist, 'tps-planner.html')
open(out, 'w', encoding='utf-8').write(single)
print(f'postbuild: CSP added to index.html ({len(inline)} inline script(s) hashed); '
      f'{out}: {len(single) / 1e6:.2f} MB self-contained')
