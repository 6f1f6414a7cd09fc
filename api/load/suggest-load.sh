#!/usr/bin/env bash
# Suggest latency through the API (wrk), with the same server's static /favicon.ico as the floor of what
# any request costs on this machine (HTTP, Jetty, filters), in one run.
#
#   ./chainfeed run                 # in another terminal: the stack with the bundled corpus
#   api/load/suggest-load.sh        # or: API_URL=... DURATION=20s CONNECTIONS=4 api/load/suggest-load.sh
#
# Each request asks GET /api/v1/suggest?q=<text>&size=8 for one of a list of texts people type (tickers
# of any listing, MIC-qualified symbols, prefixes, names, typos), in turn. A short warm-up, then DURATION
# of closed-loop load over CONNECTIONS connections and THREADS threads; prints p50 / p99 / requests per
# second for suggest and for the static file. Only loopback targets are accepted.
set -euo pipefail

API_URL=${API_URL:-http://127.0.0.1:8080}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-3s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-4}

die() { echo "suggest-load: $*" >&2; exit 2; }
command -v wrk >/dev/null || die "wrk is missing (Debian: apt-get install -y wrk)"
command -v curl >/dev/null || die "curl is missing"
[[ $API_URL =~ ^http://(127\.0\.0\.1|localhost)(:[0-9]+)?$ ]] || die "only http://127.0.0.1[:port] targets are allowed: $API_URL"
[[ $DURATION =~ ^[0-9]{1,3}s$ ]] || die "DURATION must be seconds, at most 999s: $DURATION"

first=$(curl -fsS "$API_URL/api/v1/suggest?q=TSM&size=8") || die "the API does not answer at $API_URL"
grep -q '"id":"tsmc"' <<<"$first" || die "suggest for TSM does not offer TSMC: is the corpus loaded? $first"
curl -fsS "$API_URL/favicon.ico" -o /dev/null || die "no /favicon.ico at $API_URL"

lua=$(mktemp --suffix=.lua)
trap 'rm -f "$lua"' EXIT
cat >"$lua" <<'LUA'
local texts = {"TSM", "tsmc", "2330.TW", "XNYS:TSM", "nv", "nvidia", "hbm", "high band", "infini", "semicondutor",
  "arista", "ANET", "000660", "mem", "cowos", "opti", "power", "liquid cool", "ASML", "samsng"}
local i = 0
request = function()
  i = i % #texts + 1
  local t = texts[i]:gsub(" ", "%%20"):gsub(":", "%%3A")
  return wrk.format("GET", "/api/v1/suggest?size=8&q=" .. t)
end
LUA

to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /[0-9]s$/ && v !~ /ms$/) n *= 1000; printf "%.2f", n }'; }

run() { # name url [lua]
  local name=$1 url=$2 script=${3:-} out
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" ${script:+-s "$script"} "$url" >/dev/null
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency ${script:+-s "$script"} "$url")
  if grep -q 'Non-2xx' <<<"$out"; then echo "$out" >&2; die "$name: error responses under load"; fi
  local p50 p99 rps
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
  rps=$(awk '$1 == "Requests/sec:" { print $2 }' <<<"$out")
  printf '%-14s p50 %8s ms   p99 %8s ms   %9s req/s\n' "$name" "$p50" "$p99" "$rps"
}

echo "suggest-load: $CONNECTIONS connections, $THREADS threads, $DURATION after $WARMUP warm-up, $API_URL"
run "suggest" "$API_URL" "$lua"
run "static file" "$API_URL/favicon.ico"
