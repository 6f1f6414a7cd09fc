#!/usr/bin/env python3
"""chainfeed pipeline benchmark: figures of the running stack beside raw limits measured in the same run.

Run against a stack started with ./chainfeed run (loopback only) whose ingest knows an editor key:

    EDITOR_KEY=... bench/pipeline-bench.py --api http://127.0.0.1:8080 --ingest http://127.0.0.1:8081 \
        --es http://127.0.0.1:19200 [--kafka 127.0.0.1:19092 --rawbench /path/to/rawbench] [--sizes 10000,100000]

What it measures (each printed as a row of one Markdown table, with `uptime` load at that moment):

  pipeline    N signals posted to POST /ingest/v1/signals in batches (as fast as ingest acknowledges),
              timed from the first post until all N are searchable in Elasticsearch (_count on their
              read ids): the end-to-end rate, and the rates of the first and last 10,000 (flatness).
  batches     after --warmup-batches (default 1) batches of 3,000 shown as warm-up, three batches of 3,000
              in a row, each timed the same way (the issue's "done when").
  latency     single signals, one at a time at random gaps: ingest acknowledgement -> searchable
              (polling Elasticsearch every 10 ms) and -> delivered on the SSE feed
              (/api/v1/feeds/stream?topic=all), p50/p99.
  chain       GET /api/v1/chain, /api/v1/layers/memory, /api/v1/layers/memory/causes: latency p50/p99 and size.
  search      api/load/search-load.sh (API vs Elasticsearch) when present and wrk is installed; else n/a.

Raw limits beside them: Elasticsearch bulk rate and refresh latency measured by this script itself
(the same requests rawbench's es-bulk / es-refresh-latency make, on a scratch index that is deleted
afterwards), the HTTP floor of the API (GET /actuator/health), and, with --rawbench, rawbench's
kafka-copy (EOS) rate and es-bulk rate. Only loopback targets are accepted.
"""
import argparse
import datetime
import http.client
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

LAYERS = ["memory", "advanced-packaging", "foundry", "accelerators", "servers-systems", "network-fabric",
          "semiconductor-equipment", "energy-power", "cloud-compute", "datacenter-facilities"]
BODIES = ["SK hynix says HBM capacity is allocated through next year.",
          "TSMC extends CoWoS lead times as accelerator orders pile up.",
          "Arista and Celestica report switch builds slipping on optics shortages.",
          "Micron adds HBM lines; DRAM contract prices ease.",
          "Nvidia server shipments wait on liquid cooling parts from Vertiv."]


def die(msg):
    print("pipeline-bench: " + msg, file=sys.stderr)
    sys.exit(2)


def loopback(url):
    u = urllib.parse.urlparse(url if "://" in url else "http://" + url)
    if u.hostname not in ("127.0.0.1", "localhost"):
        die("only loopback targets are allowed: " + url)
    return u


class Http:
    """One keep-alive connection per thread to one origin."""

    def __init__(self, base):
        self.u = loopback(base)
        self.local = threading.local()

    def conn(self):
        c = getattr(self.local, "c", None)
        if c is None:
            c = http.client.HTTPConnection(self.u.hostname, self.u.port, timeout=60)
            self.local.c = c
        return c

    def request(self, method, path, body=None, headers=None):
        for attempt in range(2):
            c = self.conn()
            try:
                c.request(method, path, body=body, headers=headers or {})
                r = c.getresponse()
                data = r.read()
                return r.status, data
            except (http.client.HTTPException, OSError):
                c.close()
                self.local.c = None
                if attempt == 1:
                    raise
        raise AssertionError


def load():
    return os.getloadavg()[0]


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


class Bench:
    def __init__(self, a):
        self.a = a
        self.api = Http(a.api)
        self.ingest = Http(a.ingest)
        self.es = Http(a.es)
        self.key = os.environ.get("EDITOR_KEY") or die("set EDITOR_KEY to an editor key the ingest service knows")
        self.run = "bench-" + uuid.uuid4().hex[:8]
        self.seq = 0
        self.clock = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        self.rows = []

    # --- signals -------------------------------------------------------------------------------
    def signal(self):
        self.seq += 1
        rnd = random.Random(self.seq)
        self.clock += datetime.timedelta(seconds=rnd.randint(1, 30))
        layers = rnd.sample(LAYERS, rnd.choice([1, 1, 2]))
        return {"id": "%s-%d" % (self.run, self.seq), "headline": "Signal %d on %s" % (self.seq, layers[0]),
                "body": rnd.choice(BODIES), "layers": layers,
                "direction": rnd.choice(["tightening", "tightening", "easing"]), "magnitude": rnd.randint(1, 5),
                "observedAt": self.clock.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "source": {"name": "bench", "url": "https://example.com/bench/%s/%d" % (self.run, self.seq)}}

    def post(self, signals):
        status, data = self.ingest.request("POST", "/ingest/v1/signals", json.dumps(signals).encode(),
                                           {"Content-Type": "application/json",
                                            "Authorization": "Bearer " + self.key})
        if status != 202:
            die("ingest answered %d: %s" % (status, data[:300]))
        body = json.loads(data)
        if body.get("rejected"):
            die("ingest rejected signals: %s" % json.dumps(body["rejected"])[:300])

    def count(self, prefix):
        q = json.dumps({"query": {"prefix": {"id": "signal:" + prefix}}}).encode()
        status, data = self.es.request("POST", "/%s/_count" % self.a.index, q, {"Content-Type": "application/json"})
        if status != 200:
            die("Elasticsearch _count answered %d: %s" % (status, data[:300]))
        return json.loads(data)["count"]

    def pipeline(self, n, batch):
        """Posts n signals, returns (rate, first10k rate, last10k rate, ack rate)."""
        self.runs = getattr(self, "runs", 0) + 1
        prefix = "%s-r%d-" % (self.run, self.runs)
        signals = []
        for _ in range(n):
            s = self.signal()
            s["id"] = prefix + s["id"].rsplit("-", 1)[1]
            signals.append(s)
        crossings = {}
        marks = sorted({min(n, 10000), max(0, n - 10000), n})
        done = threading.Event()

        def poll():
            while not done.is_set():
                c = self.count(prefix)
                now = time.monotonic()
                for m in marks:
                    if m not in crossings and c >= m:
                        crossings[m] = now
                if c >= n:
                    done.set()
                    return
                time.sleep(0.05)

        t0 = time.monotonic()
        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        for i in range(0, n, batch):
            self.post(signals[i:i + batch])
        acked = time.monotonic()
        if not done.wait(self.a.timeout):
            die("only %d of %d signals searchable after %d s" % (self.count(prefix), n, self.a.timeout))
        end = crossings[n]
        rate = n / (end - t0)
        first = crossings[min(n, 10000)]
        first_rate = min(n, 10000) / (first - t0)
        last_rate = None
        if n >= 20000:
            last_rate = 10000 / (end - crossings[n - 10000])
        return rate, first_rate, last_rate, n / (acked - t0)

    # --- latency ---------------------------------------------------------------------------------
    def latency(self, count):
        seen = {}
        ready = threading.Event()
        stop = threading.Event()
        u = loopback(self.a.api)

        def listen():
            c = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
            c.request("GET", "/api/v1/feeds/stream?topic=all", headers={"Accept": "text/event-stream"})
            r = c.getresponse()
            event = None
            while not stop.is_set():
                line = r.fp.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                    if event == "ready":
                        ready.set()
                elif line.startswith("data:") and event == "read":
                    try:
                        rid = json.loads(line[5:]).get("id", "")
                    except ValueError:
                        continue
                    if rid not in seen:
                        seen[rid] = time.monotonic()

        t = threading.Thread(target=listen, daemon=True)
        t.start()
        if not ready.wait(30):
            die("the SSE feed sent no ready event")
        searchable, sse = [], []
        for i in range(count):
            s = self.signal()
            s["id"] = "%s-l-%d" % (self.run, i)
            rid = "signal:" + s["id"]
            self.post([s])
            acked = time.monotonic()
            q = json.dumps({"query": {"ids": {"values": [rid]}}}).encode()
            while True:
                status, data = self.es.request("POST", "/%s/_count" % self.a.index, q, {"Content-Type": "application/json"})
                if status == 200 and json.loads(data)["count"] == 1:
                    searchable.append((time.monotonic() - acked) * 1000)
                    break
                if time.monotonic() - acked > 60:
                    die("signal %s not searchable after 60 s" % rid)
                time.sleep(0.01)
            deadline = time.monotonic() + 30
            while rid not in seen and time.monotonic() < deadline:
                time.sleep(0.005)
            if rid in seen:
                sse.append((seen[rid] - acked) * 1000)
            time.sleep(random.uniform(0, 0.3))
        stop.set()
        return searchable, sse

    def es_refresh_raw(self, count):
        index = "bench-raw-refresh-" + self.run
        self.es.request("PUT", "/" + index, json.dumps({"settings": {"number_of_shards": 1, "number_of_replicas": 0}}).encode(),
                        {"Content-Type": "application/json"})
        lat = []
        for i in range(count):
            time.sleep(random.uniform(0, 1))
            self.es.request("PUT", "/%s/_doc/%d" % (index, i), json.dumps({"title": "note %d" % i}).encode(),
                            {"Content-Type": "application/json"})
            t0 = time.monotonic()
            q = json.dumps({"query": {"ids": {"values": [str(i)]}}}).encode()
            while True:
                status, data = self.es.request("POST", "/%s/_count" % index, q, {"Content-Type": "application/json"})
                if json.loads(data).get("count") == 1:
                    lat.append((time.monotonic() - t0) * 1000)
                    break
                time.sleep(0.005)
        self.es.request("DELETE", "/" + index)
        return lat

    def es_bulk_raw(self, docs):
        index = "bench-raw-bulk-" + self.run
        self.es.request("PUT", "/" + index, json.dumps({"settings": {"number_of_shards": 1, "number_of_replicas": 0}}).encode(),
                        {"Content-Type": "application/json"})
        rnd = random.Random(1)
        t0 = time.monotonic()
        for start in range(0, docs, 1000):
            lines = []
            for i in range(start, min(docs, start + 1000)):
                lines.append(json.dumps({"index": {"_id": str(i)}}))
                lines.append(json.dumps({"title": "Signal %d" % i, "body": rnd.choice(BODIES) * 4,
                                         "layers": rnd.sample(LAYERS, 2), "published": "2026-01-01"}))
            status, data = self.es.request("POST", "/%s/_bulk" % index, ("\n".join(lines) + "\n").encode(),
                                           {"Content-Type": "application/x-ndjson"})
            if status != 200 or json.loads(data).get("errors"):
                die("raw bulk failed: %s" % data[:300])
        self.es.request("POST", "/%s/_refresh" % index)
        rate = docs / (time.monotonic() - t0)
        self.es.request("DELETE", "/" + index)
        return rate

    def timed_get(self, http_, path, count):
        lat, size = [], 0
        for _ in range(count):
            t0 = time.monotonic()
            status, data = http_.request("GET", path, headers={"Accept": "application/json"})
            lat.append((time.monotonic() - t0) * 1000)
            if status != 200:
                die("GET %s answered %d" % (path, status))
            size = len(data)
        return lat, size

    # --- output ----------------------------------------------------------------------------------
    def row(self, what, figure, raw, ratio):
        r = (what, figure, raw, ratio, "%.2f" % load())
        self.rows.append(r)
        print("| %s | %s | %s | %s | %s |" % r, flush=True)

    def rawbench(self, *args):
        if not self.a.rawbench:
            return None
        cmd = [os.path.join(self.a.rawbench, "rawbench")] + list(args)
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
        lines = [l for l in out.stdout.splitlines() if l.startswith("RESULT ")]
        if not lines:
            print("rawbench %s failed: %s" % (args[0], out.stderr[-500:]), file=sys.stderr)
            return None
        return dict(kv.split("=", 1) for kv in lines[-1].split()[2:])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--api", default="http://127.0.0.1:8080")
    p.add_argument("--ingest", default="http://127.0.0.1:8081")
    p.add_argument("--es", default="http://127.0.0.1:19200")
    p.add_argument("--index", default="chainfeed-reads", help="the reads alias")
    p.add_argument("--kafka", default=None, help="bootstrap of the stack's Kafka (for rawbench kafka-copy)")
    p.add_argument("--rawbench", default=None, help="a writable copy of rawbench (optional): adds its raw limits")
    p.add_argument("--sizes", default="10000,100000", help="pipeline runs, signals each")
    p.add_argument("--batch", type=int, default=300, help="signals per ingest request")
    p.add_argument("--latency-signals", type=int, default=60)
    p.add_argument("--timeout", type=int, default=900, help="seconds a pipeline run may take")
    p.add_argument("--warmup-batches", type=int, default=1, help="batches of 3,000 posted before the three timed ones")
    p.add_argument("--skip", default="", help="comma-separated sections to skip: raw,batches,pipeline,latency,chain,search")
    a = p.parse_args()
    skip = set(filter(None, a.skip.split(",")))
    b = Bench(a)
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print("machine: %s, %d cores, %s; date %s UTC; run %s" % (platform.node(), os.cpu_count(), cpu,
          datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"), b.run))
    print()
    print("| figure | chainfeed | raw limit (same run) | ratio | load (1 min) |")
    print("|---|---|---|---|---|")

    es_bulk = None
    if "raw" not in skip:
        es_bulk = b.es_bulk_raw(20000)
        b.row("Elasticsearch bulk, 20k docs (this script)", "-", "%.0f docs/s" % es_bulk, "-")
        rb = b.rawbench("es-bulk", "--url", a.es, "--docs", "30000", "--threads", "2", "--warmup", "5000")
        if rb:
            b.row("Elasticsearch bulk (rawbench es-bulk)", "-", "%s docs/s" % rb["docs_per_s"], "-")
        if a.kafka:
            rb = b.rawbench("kafka-copy", "--bootstrap", a.kafka, "--records", "100000", "--warmup", "20000", "--eos", "true")
            if rb:
                b.row("Kafka Streams EOS copy (rawbench kafka-copy)", "-", "%s records/s" % rb["records_per_s"], "-")
        if not a.rawbench:
            b.row("Kafka Streams EOS copy", "-", "n/a (pass --rawbench DIR --kafka HOST:PORT)", "-")

    if "batches" not in skip:
        # Warm-up first, as JMH does: a freshly started stack runs interpreted and C1 code for its first
        # thousands of records (C2 compiles the hot paths as they get hot); that start-up cost is no cost
        # of work growing, so it is timed and shown but not one of the three.
        for i in range(a.warmup_batches):
            rate, _, _, ack = b.pipeline(3000, a.batch)
            b.row("warm-up batch %d of 3,000 (not counted)" % (i + 1), "%.0f signals/s (acks %.0f/s)" % (rate, ack), "-", "-")
        rates = []
        for i in range(3):
            rate, _, _, ack = b.pipeline(3000, a.batch)
            rates.append(rate)
            b.row("batch %d of 3,000: ingest ack -> searchable" % (i + 1), "%.0f signals/s (acks %.0f/s)" % (rate, ack),
                  "%.0f docs/s" % es_bulk if es_bulk else "-", "%.2f" % (rate / es_bulk) if es_bulk else "-")
        b.row("batch 3 / batch 1", "%.2f" % (rates[2] / rates[0]), "1.00 (flat)", "-")

    if "pipeline" not in skip:
        for n in [int(x) for x in a.sizes.split(",") if x]:
            rate, first, last, ack = b.pipeline(n, a.batch)
            b.row("pipeline %d signals: ingest ack -> searchable" % n, "%.0f signals/s (acks %.0f/s)" % (rate, ack),
                  "%.0f docs/s" % es_bulk if es_bulk else "-", "%.2f" % (rate / es_bulk) if es_bulk else "-")
            if last:
                b.row("pipeline %d: last 10k / first 10k" % n, "%.0f / %.0f signals/s = %.2f" % (last, first, last / first),
                      "1.00 (flat)", "-")

    if "latency" not in skip:
        raw = b.es_refresh_raw(30) if "raw" not in skip else []
        searchable, sse = b.latency(a.latency_signals)
        rp50, rp99 = (pct(raw, 50), pct(raw, 99)) if raw else (float("nan"), float("nan"))
        b.row("ingest ack -> searchable p50 / p99 (%d signals)" % len(searchable),
              "%.0f / %.0f ms" % (pct(searchable, 50), pct(searchable, 99)),
              "ES index -> searchable %.0f / %.0f ms" % (rp50, rp99),
              "%.2f / %.2f" % (pct(searchable, 50) / rp50, pct(searchable, 99) / rp99) if raw else "-")
        b.row("ingest ack -> SSE event p50 / p99 (%d of %d)" % (len(sse), len(searchable)),
              "%.0f / %.0f ms" % (pct(sse, 50), pct(sse, 99)), "-", "-")

    if "chain" not in skip:
        floor, _ = b.timed_get(b.api, "/actuator/health", 100)
        b.row("api GET /actuator/health (HTTP floor) p50 / p99", "-", "%.1f / %.1f ms" % (pct(floor, 50), pct(floor, 99)), "-")
        for path in ["/api/v1/chain", "/api/v1/layers/memory", "/api/v1/layers/memory/causes?size=50"]:
            lat, size = b.timed_get(b.api, path, 100)
            b.row("GET %s p50 / p99, size" % path, "%.1f / %.1f ms, %.1f KB" % (pct(lat, 50), pct(lat, 99), size / 1024),
                  "%.1f / %.1f ms" % (pct(floor, 50), pct(floor, 99)),
                  "%.1f / %.1f" % (pct(lat, 50) / pct(floor, 50), pct(lat, 99) / pct(floor, 99)))

    if "search" not in skip:
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api", "load", "search-load.sh")
        if os.path.exists(script) and subprocess.run(["sh", "-c", "command -v wrk"], capture_output=True).returncode == 0:
            out = subprocess.run([script], capture_output=True, text=True, timeout=600,
                                 env=dict(os.environ, API_URL=a.api.rstrip("/"), ES_URL=a.es.rstrip("/"),
                                          WARMUP=os.environ.get("WARMUP", "15s")))
            tail = " ".join(out.stdout.strip().splitlines()[-3:]) if out.returncode == 0 else "failed: " + out.stderr[-200:]
            b.row("search p50 / p99, req/s vs Elasticsearch (api/load/search-load.sh)", tail, "(in the script's output)", "-")
        else:
            b.row("search p50 / p99, req/s vs Elasticsearch", "n/a: api/load/search-load.sh or wrk missing", "-", "-")


if __name__ == "__main__":
    main()
