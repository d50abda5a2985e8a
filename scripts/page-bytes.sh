#!/usr/bin/env bash
# Bytes on the wire (response bodies) for the home page and a game page, each with every file
# it links and imports and the API calls it makes over HTTP: without compression, with gzip,
# with brotli, and on a repeat visit (versioned static URLs come from the browser's cache,
# the rest is revalidated with its ETag). docs/api.md "Compression and caching" quotes it.
#
#   cargo build -p bao-cli && scripts/page-bytes.sh        (BAO=path/to/bao to choose the binary)
#
# Needs curl and python3.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BAO=${BAO:-target/debug/bao}
d=$(mktemp -d); port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
$BAO serve --addr 127.0.0.1:$port --database sqlite://$d/m.db 2>/dev/null >/dev/null & pid=$!
trap 'kill $pid; rm -rf $d' EXIT
b=http://127.0.0.1:$port
until curl -sf $b/api/health >/dev/null; do sleep 0.1; done
id=$(curl -s -H 'content-type: application/json' -d '{"variant":"kiswahili","opponent":{"kind":"human"},"side":"S"}' $b/api/games | python3 -c 'import json,sys;print(json.load(sys.stdin)["id"])')
# The URLs a page loads: the page, what it links, what the scripts import (transitively), its API calls.
urls() { # page api...
  local page=$1; shift
  python3 - "$b" "$page" "$@" <<'PY'
import re,sys,urllib.request
b,page,api=sys.argv[1],sys.argv[2],sys.argv[3:]
seen=[page]; todo=[page]
while todo:
    u=todo.pop(); t=urllib.request.urlopen(b+u).read().decode()
    refs=re.findall(r'"(/static/[^"]+)"',t)+['/static/'+m for m in re.findall(r"from '\./([^']+)'",t)]
    for r in refs:
        if r not in seen: seen.append(r); todo.append(r)
print("\n".join(seen+api))
PY
}
measure() { # name page api...
  local name=$1; shift
  local list; list=$(urls "$@")
  for enc in identity gzip br; do
    total=0; again=0
    for u in $list; do
      n=$(curl -s -o /dev/null -w '%{size_download}' -H "accept-encoding: $enc" "$b$u")
      total=$((total+n))
      # Repeat visit: versioned static URLs come from the cache; the rest revalidate.
      etag=$(curl -s -D - -o /dev/null "$b$u" | awk -F': ' 'tolower($1)=="etag"{print $2}' | tr -d '\r')
      cc=$(curl -s -D - -o /dev/null "$b$u" | awk -F': ' 'tolower($1)=="cache-control"{print $2}' | tr -d '\r')
      case "$cc" in *immutable*) n=0;; *) n=$(curl -s -o /dev/null -w '%{size_download}' -H "accept-encoding: $enc" ${etag:+-H "if-none-match: $etag"} "$b$u");; esac
      again=$((again+n))
    done
    echo "$name $enc: first visit $total bytes of body, repeat visit $again"
  done
}
measure home / /api/variants '/api/games?status=live' '/api/games?status=finished'
measure game /g/$id /api/games/$id
