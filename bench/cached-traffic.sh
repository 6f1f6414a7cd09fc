#!/usr/bin/env bash
# bench/mixed-traffic.sh through Debian's nginx as a shared caching proxy on loopback (issue 25): nginx
# listens on 127.0.0.1:8090 in front of the api on 8080 with a proxy cache that honours the api's
# Cache-Control (s-maxage, stale-while-revalidate), ETag and Vary, and passes X-Forwarded-For on (the
# api trusts loopback proxies, so a visitor's own address still counts for the per-client limits).
# Prints MixedTraffic's table, then nginx's cache outcome per path class and the hit rate. Loopback
# only; needs nginx (Debian: apt-get install -y nginx-light) and a running ./chainfeed run.
#   bench/cached-traffic.sh [MixedTraffic options, e.g. --seconds 30 --sse 500]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nginx >/dev/null || { echo "cached-traffic: nginx is missing (Debian: apt-get install -y nginx-light)" >&2; exit 2; }
PORT=${PORT:-8070}
dir=$(mktemp -d)
trap '[ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null; sleep 1; rm -rf "$dir"' EXIT
mkdir -p "$dir/cache" "$dir/tmp"
chmod 755 "$dir"
if [ "$(id -u)" = 0 ]; then
  # nginx's workers drop to its unprivileged user (www-data on Debian): they write the cache
  chown -R www-data "$dir/cache" "$dir/tmp"
fi
cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 8192; }
http {
  log_format cache '\$upstream_cache_status \$status \$request_uri';
  access_log $dir/access.log cache;
  client_body_temp_path $dir/tmp; proxy_temp_path $dir/tmp;
  fastcgi_temp_path $dir/tmp; uwsgi_temp_path $dir/tmp; scgi_temp_path $dir/tmp;
  proxy_cache_path $dir/cache levels=1:2 keys_zone=chainfeed:16m max_size=256m inactive=10m use_temp_path=off;
  upstream api { server 127.0.0.1:8080; keepalive 64; }
  server {
    listen 127.0.0.1:$PORT;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host \$host;
    proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
    location /api/v1/feeds/stream {
      proxy_pass http://api;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }
    location / {
      proxy_pass http://api;
      proxy_cache chainfeed;
      proxy_cache_revalidate on;
      proxy_cache_lock on;
      proxy_cache_background_update on;
      proxy_cache_use_stale updating error timeout;
    }
  }
}
CONF
nginx -c "$dir/nginx.conf" -p "$dir"
echo "nginx $(nginx -v 2>&1 | sed 's/.*\///') caching on 127.0.0.1:$PORT in front of 127.0.0.1:8080"
bench/mixed-traffic.sh --url "http://127.0.0.1:$PORT" "$@"
kill -HUP "$(cat "$dir/nginx.pid")" # reopen: the access log is complete up to here
awk '
  { path = $3; sub(/\?.*/, "", path)
    cls = path ~ /^\/widget\// ? "widget" : path ~ /^\/embed\// ? "embed" : path ~ /^\/api\/v1\/search/ ? "search" \
        : path ~ /^\/api\/v1\/feeds\/stream/ ? "sse" : path ~ /^\/api\/v1\/feeds\// ? "feeds" : "other"
    n[cls]++; s[cls, $1]++; total++; if ($1 == "HIT" || $1 == "STALE" || $1 == "UPDATING" || $1 == "REVALIDATED") { hit[cls]++; hits++ } }
  END {
    printf "\nnginx cache outcome per class (HIT, STALE, UPDATING and REVALIDATED count as served by the cache):\n"
    printf "%-8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "class", "requests", "HIT", "MISS", "EXPIRED", "STALE", "UPDATING", "REVAL", "hit rate"
    for (c in n) printf "%-8s %8d %8d %8d %8d %8d %8d %8d %7.1f%%\n", c, n[c], s[c,"HIT"], s[c,"MISS"], s[c,"EXPIRED"], s[c,"STALE"], s[c,"UPDATING"], s[c,"REVALIDATED"], 100 * hit[c] / n[c]
    printf "RESULT name=cached-traffic requests=%d cache_hit_rate=%.3f cacheable_hit_rate=%.3f\n", total, hits / total,
      hits / (total - n["sse"] - n["search"])
  }' "$dir/access.log"
