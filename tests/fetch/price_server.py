#!/usr/bin/env python3
"""A stand-in for AWS's and Azure's price feeds, on 127.0.0.1, for `catalog fetch`'s tests.

Usage: price_server.py FIXTURES_DIR LOG_FILE
Prints the port it listens on (chosen by the system), then serves until killed. Every request
is appended to LOG_FILE as "GET <path>". The first path segment picks the behaviour, the rest
is the feed's own path:

  /ok/...          the recorded pages (ETag and Last-Modified; 304 to a matching If-None-Match)
  /flaky/...       HTTP 500 the first time a path is asked for, then as /ok
  /busy/...        HTTP 429 with Retry-After: 1 the first time a path is asked for, then as /ok
  /slow/...        waits 3 s before answering (longer than the tests' --timeout 1)
  /truncated/...   a Content-Length 100 bytes longer than the body, then the connection closes
  /cut-once/...    as /truncated the first time a path is asked for, then as /ok
  /loop/...        a redirect to itself
  /elsewhere/...   Azure pages whose NextPageLink points at another host

AWS: /offers/v1.0/aws/AmazonEC2/current/region_index.json is aws/region_index.json; an offer
file /offers/v1.0/aws/AmazonEC2/<version>/<region>/index.json is aws/offer-<region>.json.
Azure: /api/retail/prices?$filter=...armRegionName eq 'R'...&$skip=N is azure/R-N.json (N is 0
without $skip); a region without pages gets one empty page.
"""
import hashlib
import http.server
import json
import re
import sys
import threading
import time
import urllib.parse

FIXTURES, LOG = sys.argv[1], sys.argv[2]
seen = set()
lock = threading.Lock()


def first_time(path):
    with lock:
        if path in seen:
            return False
        seen.add(path)
        return True


def feed_body(path):
    """The recorded page for a feed path, or None."""
    url = urllib.parse.urlsplit(path)
    if url.path == "/offers/v1.0/aws/AmazonEC2/current/region_index.json":
        return read(f"aws/region_index.json")
    offer = re.fullmatch(r"/offers/v1\.0/aws/AmazonEC2/[0-9]+/([a-z0-9-]+)/index\.json", url.path)
    if offer:
        return read(f"aws/offer-{offer.group(1)}.json")
    if url.path == "/api/retail/prices":
        query = urllib.parse.parse_qs(url.query)
        region = re.search(r"armRegionName eq '([^']+)'", query.get("$filter", [""])[0])
        skip = query.get("$skip", ["0"])[0]
        if not region:
            return None
        body = read(f"azure/{region.group(1)}-{skip}.json")
        if body is None:
            body = json.dumps({"BillingCurrency": "USD", "CustomerEntityId": "Default",
                               "CustomerEntityType": "Retail", "Items": [],
                               "NextPageLink": None, "Count": 0}).encode()
        return body
    return None


def read(name):
    try:
        with open(f"{FIXTURES}/{name}", "rb") as f:
            return f.read()
    except OSError:
        return None


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock, open(LOG, "a") as log:
            log.write(f"GET {self.path}\n")
        match = re.fullmatch(r"/([a-z-]+)(/.*)", self.path)
        if not match:
            return self.send_error(404)
        mode, rest = match.groups()
        try:
            self.answer(mode, rest)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout)

    def answer(self, mode, rest):
        if mode == "loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if mode == "flaky" and first_time(self.path):
            return self.send_error(500)
        if mode == "busy" and first_time(self.path):
            self.send_response(429)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if mode == "slow":
            time.sleep(3)
        body = feed_body(rest)
        if body is None:
            return self.send_error(404)
        if mode == "elsewhere":
            body = body.replace(b"https://prices.azure.com:443", b"https://prices.example.com")
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if mode == "ok" and self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            return self.end_headers()
        cut = mode == "truncated" or (mode == "cut-once" and first_time(self.path))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body) + (100 if cut else 0)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", "Tue, 01 Dec 2026 00:00:00 GMT")
        self.end_headers()
        self.wfile.write(body)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
